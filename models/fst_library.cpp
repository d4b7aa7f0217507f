// GTKWave's FST writer (fstapi, MIT licence; its compressors LZ4, BSD-2, and
// FastLZ, MIT), from the copy Debian's verilator package ships for the traces
// of Verilated models. Compiled here as one C++ unit, as Verilator does, so
// icnsim needs no C toolchain setup and no extra Debian package beyond zlib.
#define FST_CONFIG_INCLUDE "fst_config.h"
#include "fastlz.c"
#include "fstapi.c"
#include "lz4.c"
