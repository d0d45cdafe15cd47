# cmake -DINPUT=FILE -DOUTPUT=HEADER -DNAME=SYMBOL -P EmbedBinary.cmake
# Writes HEADER with `static const unsigned char SYMBOL[]` holding the bytes
# of FILE (a SPIR-V module assembled at build time, say).
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n  " bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by cmake/EmbedBinary.cmake; do not edit.\n"
  "static const unsigned char ${NAME}[] = {\n  ${bytes}\n};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
