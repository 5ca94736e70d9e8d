/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/fileio.h"
#include "policy-file.h"

static const char *type_name(mode_t mode) {
        switch (mode & S_IFMT) {
        case S_IFDIR:
                return "a directory";
        case S_IFIFO:
                return "a FIFO";
        case S_IFCHR:
                return "a character device";
        case S_IFBLK:
                return "a block device";
        case S_IFSOCK:
                return "a socket";
        default:
                return "not a regular file";
        }
}

int policy_file_read(const char *path, size_t max_size, char **ret, size_t *ret_size, const char **ret_type) {
        struct stat st;
        int fd, r;

        /* O_NONBLOCK: opening a FIFO or a device must not wait for a peer
         * or a carrier; what was opened is then checked on the descriptor
         * itself, so nothing can be swapped in between. */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode)) {
                *ret_type = type_name(st.st_mode);
                r = -EMEDIUMTYPE;
        } else
                r = read_full_fd(fd, max_size, ret, ret_size);
        close(fd);
        return r;
}
