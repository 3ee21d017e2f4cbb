# craft_pt.py: hostile and broken .pt files, made with Python's standard library alone (no torch), for the bad-input cases.
#
# Usage: python3 craft_pt.py KIND PATH [TOUCHED]
# KIND is one of the names in `kinds` below; TOUCHED is the file a hostile pickle's command would
# create (default PATH.pwned). Every file but "good" must be refused by rl-insight, and "evil" must
# never run its command.
import gzip
import os
import pickle
import struct
import sys
import zipfile


def text(t):
    b = t.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def glob(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def integer(v):
    return b"\x8a\x08" + struct.pack("<q", v)


def tensor_pickle(storage="LongStorage", numel=4, size=(4,), stride=(1,), offset=0):
    """The pickle torch.save writes for a tensor (gmm.md §2.3), with the numbers given."""
    p = b"\x80\x02" + glob("torch._utils", "_rebuild_tensor_v2") + b"(("
    p += text("storage") + glob("torch", storage) + text("0") + text("cpu") + integer(numel) + b"tQ"
    p += integer(offset) + b"(" + b"".join(integer(s) for s in size) + b"t"
    p += b"(" + b"".join(integer(s) for s in stride) + b"t"
    p += b"\x89" + glob("collections", "OrderedDict") + b")R" + b"tR."
    return p


LONGS = struct.pack("<4q", 5, 0, 7, 3)


def archive(path, records, compress=None):
    """A zip like torch.save's: every record under one folder, stored unless compress names one."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in records:
            if compress and name == compress:
                z.writestr("archive/" + name, data, compress_type=zipfile.ZIP_DEFLATED)
            else:
                z.writestr("archive/" + name, data)


def tensor_zip(path, pickle_bytes, storage=LONGS, extra=(), compress=None):
    archive(path, [("data.pkl", pickle_bytes), ("data/0", storage), ("version", b"3\n")] + list(extra), compress)


class Evil:
    def __init__(self, touched):
        self.touched = touched

    def __reduce__(self):
        return (os.system, ("touch " + self.touched,))


def main():
    kind, path = sys.argv[1], sys.argv[2]
    touched = sys.argv[3] if len(sys.argv) > 3 else path + ".pwned"
    kinds = {
        "good": lambda: tensor_zip(path, tensor_pickle()),
        # a pickle that runs a command, as a __reduce__ returning os.system makes it
        "evil": lambda: tensor_zip(path, pickle.dumps(Evil(touched), protocol=2)),
        "evil-legacy": lambda: open(path, "wb").write(
            bytes.fromhex("80028a0a6cfc9c46f9206aa850192e") + bytes.fromhex("80024de9032e")
            + pickle.dumps(Evil(touched), protocol=2)),
        "builtins-eval": lambda: tensor_zip(path, b"\x80\x02" + glob("builtins", "eval") + text("1") + b"\x85R."),
        "numpy-array": lambda: tensor_zip(path, b"\x80\x02" + glob("numpy.core.multiarray", "_reconstruct") + b"."),
        "build-opcode": lambda: tensor_zip(path, b"\x80\x02}b."),
        "plain-pickle": lambda: open(path, "wb").write(pickle.dumps([1, 2, 3], protocol=4)),
        "list": lambda: tensor_zip(path, pickle.dumps([1, 2, 3], protocol=2)),
        # bounds
        "zip-bomb": lambda: tensor_zip(path, tensor_pickle(numel=8 << 20, size=(1 << 20,)), b"\0" * (64 << 20),
                                       compress="data/0"),
        "storage-larger-than-file": lambda: tensor_zip(path, tensor_pickle(numel=1 << 30, size=(4,))),
        "billion-elements": lambda: tensor_zip(path, tensor_pickle(numel=10 ** 9, size=(10 ** 9,))),
        "stride-past-storage": lambda: tensor_zip(path, tensor_pickle(size=(3,), stride=(2,))),
        "deep-marks": lambda: tensor_zip(path, b"\x80\x02" + b"(" * 1000000),
        "memo-bomb": lambda: tensor_zip(path, b"\x80\x02Nr" + struct.pack("<I", 0x7fffffff) + b"."),
        "huge-string": lambda: tensor_zip(path, b"\x80\x02X" + struct.pack("<I", 0xffffffff) + b"abc"),
        # containers
        "torchscript": lambda: tensor_zip(path, tensor_pickle(), extra=[("constants.pkl", b"\x80\x02).")]),
        "no-storage-record": lambda: archive(path, [("data.pkl", tensor_pickle()), ("version", b"3\n")]),
        "bad-byteorder": lambda: tensor_zip(path, tensor_pickle(), extra=[("byteorder", b"middle")]),
        "gzip": lambda: open(path, "wb").write(gzip.compress(open(path + ".good", "rb").read())
                                                if os.path.exists(path + ".good") else gzip.compress(b"x" * 100)),
    }
    if kind not in kinds:
        sys.exit(f"craft_pt.py: unknown kind {kind}; one of {', '.join(kinds)}")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    kinds[kind]()


main()
