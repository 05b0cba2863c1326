#pragma once
// libFuzzer's two entry points for a harness whose work is one function of the input's
// bytes: LLVMFuzzerInitialize makes the application and render context (fuzz_support.h),
// LLVMFuzzerTestOneInput hands each input to imprint::fuzz::fuzzOne(), which the harness
// that includes this header defines. A harness with its own set-up (fuzz_http) or its own
// entry points includes fuzz_support.h alone.

#include "tests/fuzz/fuzz_support.h"

#include <QByteArrayView>

#include <cstddef>
#include <cstdint>

namespace imprint::fuzz {

/// Runs one input through the code under test; a crash, a sanitizer report or
/// std::abort() is the finding, anything else is a pass.
void fuzzOne(QByteArrayView input);

} // namespace imprint::fuzz

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    imprint::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    imprint::fuzz::fuzzOne(QByteArrayView(reinterpret_cast<const char *>(data), qsizetype(size)));
    return 0;
}
