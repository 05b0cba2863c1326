#pragma once
// What the suites' list comparisons share (COMPARE_RECTS in layout_tree.h, COMPARE_PIXELS
// in paint_test_support.h): a check that fails the test itself, at the caller's line, and
// the return from the test function after it, as QCOMPARE returns.

/// Calls `check(args..., __FILE__, __LINE__)`, a function that fails the test at that place
/// and returns false at the first miss, and then returns from the test function.
#define IMPRINT_CHECK_LIST(check, ...) \
    do { \
        if (!check(__VA_ARGS__, __FILE__, __LINE__)) \
            return; \
    } while (false)
