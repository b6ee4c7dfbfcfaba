/* ClipBridge benchmarks: the few helpers the C ceiling programs share.
 *
 * These programs are the *ceiling* ClipBridge is measured against: the least work plain Xlib can do to
 * move a selection between two processes. They are deliberately small, clear and unguarded (no per-transfer
 * timeouts); each has a hard deadline (alarm) so a benchmark run can never hang.
 */
#ifndef CLIPBRIDGE_BENCH_COMMON_H
#define CLIPBRIDGE_BENCH_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline int64_t clock_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* CLOCK_MONOTONIC nanoseconds: comparable between processes on one machine (watch-latency pairs a
 * claimer's timestamps with a watcher's). */
static inline int64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

/* CPU time of the whole process (all threads), for the work a loop costs rather than how long it waited. */
static inline int64_t cpu_ns(void) { return clock_ns(CLOCK_PROCESS_CPUTIME_ID); }

static inline void die(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vfprintf(stderr, format, arguments);
    va_end(arguments);
    fputc('\n', stderr);
    exit(1);
}

static int compare_int64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Prints "RESULT name=... median_us=... p90_us=... mean_us=... min_us=... count=..." for samples in ns. */
static inline void print_latency(const char *name, int64_t *samples, int count) {
    if (count == 0) die("no samples");
    qsort(samples, count, sizeof *samples, compare_int64);
    double sum = 0;
    for (int i = 0; i < count; i++) sum += samples[i];
    printf("RESULT %s count=%d median_us=%.1f p90_us=%.1f mean_us=%.1f min_us=%.1f\n", name, count,
           samples[count / 2] / 1e3, samples[(count * 9) / 10] / 1e3, sum / count / 1e3, samples[0] / 1e3);
}

#endif
