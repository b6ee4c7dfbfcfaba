/* ClipBridge benchmarks: run a command several times; report its wall time and peak RSS.
 *
 *   benchrun [-n RUNS] [-i STDIN_FILE] [-o STDOUT_FILE] -- COMMAND [ARGUMENTS...]
 *
 * Prints "RESULT runs=... median_ms=... p90_ms=... mean_ms=... min_ms=... maxrss_kib=... failures=..."
 * (maxrss from wait4's rusage: the largest resident set any run reached). STDIN_FILE is reopened for every
 * run; stdout goes to STDOUT_FILE (default /dev/null); stderr is inherited. Used for process-level timings:
 * `xclip -o` versus `clipbridge paste`, `xclip -i` versus `clipbridge copy`.
 */
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

extern char **environ;

int main(int argc, char **argv) {
    int runs = 10, option;
    const char *input = NULL, *output = "/dev/null";
    while ((option = getopt(argc, argv, "+n:i:o:")) != -1) {
        switch (option) {
        case 'n': runs = atoi(optarg); break;
        case 'i': input = optarg; break;
        case 'o': output = optarg; break;
        default: die("usage: benchrun [-n RUNS] [-i STDIN] [-o STDOUT] -- COMMAND [ARGUMENTS...]");
        }
    }
    if (optind >= argc || runs <= 0) die("usage: benchrun [-n RUNS] [-i STDIN] [-o STDOUT] -- COMMAND ...");
    int64_t *samples = calloc((size_t)runs, sizeof *samples);
    long maxrss = 0;
    int failures = 0;
    for (int i = 0; i < runs; i++) {
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, input ? input : "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        pid_t pid;
        int64_t start = now_ns();
        if (posix_spawnp(&pid, argv[optind], &actions, NULL, argv + optind, environ) != 0)
            die("cannot run %s", argv[optind]);
        int status;
        struct rusage usage;
        while (wait4(pid, &status, 0, &usage) < 0) {}
        samples[i] = now_ns() - start;
        posix_spawn_file_actions_destroy(&actions);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failures++;
        if (usage.ru_maxrss > maxrss) maxrss = usage.ru_maxrss;
    }
    qsort(samples, (size_t)runs, sizeof *samples, compare_int64);
    double sum = 0;
    for (int i = 0; i < runs; i++) sum += samples[i];
    printf("RESULT runs=%d median_ms=%.3f p90_ms=%.3f mean_ms=%.3f min_ms=%.3f maxrss_kib=%ld failures=%d\n", runs,
           samples[runs / 2] / 1e6, samples[(runs * 9) / 10] / 1e6, sum / runs / 1e6, samples[0] / 1e6, maxrss,
           failures);
    return failures ? 1 : 0;
}
