/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Many small files read at once. On this kind of machine a system call
 * costs more than reading a unit file, and a file takes three (open, read,
 * close); through io_uring a batch of files takes two io_uring_enter()
 * calls: the opens, then the reads each linked to its close. Where the
 * kernel offers no io_uring (too old, disabled by sysctl or seccomp), or a
 * batch is small, the files are read one by one: the results are the
 * same either way. */

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

typedef struct FileBatch FileBatch;

typedef struct BatchFile {
        int dfd;               /* in: directory the name is relative to (or AT_FDCWD) */
        const char *name;      /* in */
        char *data;            /* out: NUL-terminated; NULL on error. The caller's to
                                * free, unless borrowed: batch_file_done() knows */
        size_t size;
        int error;             /* out: 0 or a negative errno (-EFBIG over max_size) */
        bool borrowed;         /* out: data lies in the batch's own buffer (lend) */
} BatchFile;

/* The most files one file_batch_read() can lend: one round's buffers. */
#define FILE_BATCH_LEND_MAX 64
/* The bytes of each file's buffer in a round: a file smaller than this is
 * read whole by the batch's one read (and can be lent); a larger one is
 * read again by itself. 2 KiB holds 98 % of the unit files of Debian 12
 * (corpus) and of systemd 257's own; every page of the buffers costs,
 * where page tables are shadowed (as on the VMs measured), about 10 us
 * the first time the kernel writes there: a page per file at 4 KiB slots
 * cost a run 0.26 ms more (3.4 % of `check --root` over the corpus). */
#define FILE_BATCH_SLOT 2048

/* -ENOMEM only: a machine without io_uring gets a reader of single files,
 * and so does one that asks for it (plain). */
int file_batch_new(bool plain, FileBatch **ret);
FileBatch *file_batch_free(FileBatch *b);
static inline void file_batch_freep(FileBatch **b) {
        if (*b)
                file_batch_free(*b);
}

/* Reads every file, each a regular file by its directory's listing: opened
 * with O_NOFOLLOW and O_NONBLOCK (a symlink or FIFO put in its place is an
 * error, never followed or waited on). Returns 0 or -ENOMEM; what went
 * wrong with one file is in its error.
 * lend: the caller is done with every file's data before it calls
 * file_batch_read() on b again. A small file read whole by the batch's
 * one read is then handed out where that read put it (borrowed), not
 * copied into an allocation of its own; only with at most
 * FILE_BATCH_LEND_MAX files, which share one round's buffers. */
int file_batch_read(FileBatch *b, BatchFile *files, size_t n, size_t max_size, bool lend);

/* Frees the file's data, unless it is borrowed from the batch, and
 * forgets it either way. */
static inline void batch_file_done(BatchFile *f) {
        if (!f->borrowed)
                free(f->data);
        f->data = NULL;
        f->borrowed = false;
}

/* For main() and the verbs: UNITGUARD_IO_URING=0 in the environment asks
 * for plain reads (to compare, or where io_uring is unwelcome). */
static inline bool file_batch_plain_from_env(void) {
        const char *e = getenv("UNITGUARD_IO_URING");

        return e && e[0] == '0' && e[1] == '\0';
}

/* Whether batches go through io_uring (set up on the first large batch). */
bool file_batch_uses_io_uring(const FileBatch *b);
/* Whether the ring reads into buffers registered with it (READ_FIXED);
 * plain READ where the kernel will not pin them. */
bool file_batch_uses_fixed_buffers(const FileBatch *b);
/* Before the first batch: read into buffers not registered with the
 * ring, as where the kernel refuses to pin them (for tests). */
void file_batch_unregistered(FileBatch *b);
