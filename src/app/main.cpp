// syndic-mcp's entry point: the process set up, then the command line (app/command_line.cpp).
#include <malloc.h>
#include <signal.h>
#include <sys/stat.h>

#include "app/command_line.hpp"

namespace {

// What the process is given before anything else runs.
void setup_process() {
    // Answers are built in buffers of tens to hundreds of kilobytes, one after another. glibc
    // would hand such buffers back to the system at each free (trim, or munmap above its mmap
    // threshold) and take them again at the next call, a page fault per 4 KiB: keep them instead.
    // What the process holds is still bounded by the largest answer and the read-ahead.
    mallopt(M_MMAP_THRESHOLD, 16 << 20);
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
    // A write past RLIMIT_FSIZE or to a closed pipe fails (EFBIG, EPIPE) and is refused as such,
    // instead of killing the process.
    ::signal(SIGXFSZ, SIG_IGN);
    ::signal(SIGPIPE, SIG_IGN);
    // Every file and folder this process makes (database, -wal, -shm, backups, exports, key
    // files) is its owner's alone, whatever the umask it was started with.
    ::umask(077);
}

}  // namespace

int main(int argc, char** argv) {
    setup_process();
    return syndic::cli::run_command_line(argc, argv);
}
