# exports.cmake: the shared library's linker version script, from the functions include/rl_insight.h declares.

# Writes `output`, exporting every rli_* function the header declares and hiding every other
# symbol, so the header alone decides the library's ABI: a function added there is exported
# without another list to keep in step, and the internal rli_* helpers stay hidden.
function(rli_write_version_script header output)
	file(READ ${header} text)
	# Comments name functions too ("rli_error_last() gives..."): only declarations count.
	string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" text "${text}")
	string(REGEX MATCHALL "rli_[a-z0-9_]+[ \t\r\n]*\\(" calls "${text}")
	set(names "")
	foreach(call IN LISTS calls)
		string(REGEX REPLACE "[ \t\r\n]*\\($" "" name "${call}")
		list(APPEND names ${name})
	endforeach()
	list(REMOVE_DUPLICATES names)
	list(SORT names)
	if(NOT names)
		message(FATAL_ERROR "${header} declares no rli_* function")
	endif()
	list(JOIN names ";\n\t\t" globals)
	file(CONFIGURE OUTPUT ${output} CONTENT "{\n\tglobal:\n\t\t${globals};\n\tlocal:\n\t\t*;\n};\n" @ONLY)
	set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${header})
endfunction()
