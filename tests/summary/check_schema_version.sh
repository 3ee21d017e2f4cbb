#!/bin/sh
# check_schema_version.sh: doc/summary.schema.json, its schema_version, the writer's version and the recorded hashes agree.
# Usage: check_schema_version.sh SOURCE_DIR
set -eu
src=$1
schema=$src/doc/summary.schema.json
declared=$(sed -n 's/.*"schema_version": *{ *"const": *\([0-9]*\).*/\1/p' "$schema" | head -1)
if [ -z "$declared" ]; then
	# the const may sit on the next line of a pretty-printed schema
	declared=$(tr -d ' \n' < "$schema" | sed -n 's/.*"schema_version":{"const":\([0-9]*\)}.*/\1/p')
fi
written=$(sed -n 's/^#define RLI_SUMMARY_SCHEMA_VERSION \([0-9]*\).*/\1/p' "$src/src/export/summary.h")
hash=$(sha256sum "$schema" | cut -c1-64)
recorded=$(awk -v v="$declared" '$1 == v { print $2 }' "$src/tests/summary/schema_versions.txt")
status=0
if [ "$declared" != "$written" ]; then
	echo "the schema says schema_version $declared, src/export/summary.h writes $written" >&2
	status=1
fi
if [ -z "$recorded" ]; then
	echo "schema_version $declared has no hash in tests/summary/schema_versions.txt: add '$declared $hash'" >&2
	status=1
elif [ "$recorded" != "$hash" ]; then
	echo "doc/summary.schema.json changed but schema_version is still $declared: bump it (schema," \
		"RLI_SUMMARY_SCHEMA_VERSION) and record the new hash in tests/summary/schema_versions.txt" >&2
	status=1
fi
exit $status
