/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "basic/alloc-util.h"
#include "cat-stream.h"
#include "unit-type.h"

#define READ_CHUNK 65536

void cat_reader_init(CatReader *r, int fd, const char *source, size_t max_file) {
        *r = (CatReader) { .fd = fd, .source = source, .max_file = max_file };
#if defined(__x86_64__) && defined(__SSE2__) && !defined(CAT_STREAM_SCALAR)
        r->avx2 = __builtin_cpu_supports("avx2");
#endif
}

void cat_reader_done(CatReader *r) {
        strbuf_done(&r->buf);
        strbuf_done(&r->header_path);
        free(r->next_framing);
        free(r->spare_framing);
        free(r->failed_path);
}

void cat_reader_recycle_framing(CatReader *r, char *framing) {
        if (!r->spare_framing)
                r->spare_framing = framing;
        else
                free(framing);
}

void cat_file_done(CatFile *f) {
        /* Once per file of a stream: most often the caller has taken the
         * framing, the content is borrowed, and there are no diagnostics. */
        if (f->framing)
                free(f->framing);
        if (!f->borrowed && f->data)
                free(f->data);
        if (f->diags.items)
                diag_list_done(&f->diags);
        zero_small(f, sizeof(*f));
}

static int fill(CatReader *r) {
        ssize_t n;
        int k;

        if (r->eof)
                return 0;
        /* Drop what has been consumed before growing; the current file's
         * content (from mark on) is still needed. */
        if (r->mark > 0 && r->mark >= r->buf.len / 2) {
                memmove(r->buf.data, r->buf.data + r->mark, r->buf.len - r->mark);
                r->buf.len -= r->mark;
                r->pos -= r->mark;
                r->mark = 0;
        }
        k = strbuf_reserve(&r->buf, READ_CHUNK);
        if (k < 0)
                return k;
        do
                n = read(r->fd, r->buf.data + r->buf.len, r->buf.allocated - r->buf.len - 1);
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return -errno;
        if (n == 0) {
                r->eof = true;
                return 0;
        }
        r->buf.len += (size_t) n;
        r->buf.data[r->buf.len] = '\0';
        return 1;
}

/* Next LF-terminated line. It must end (terminator included) at most
 * limit bytes after r->mark, or reading fails with -EFBIG, before more than
 * that is buffered: how much one read() returns makes no difference. The
 * pointer stays valid until the next call. Returns 1, or 0 at the end of
 * input. */
static int read_line(CatReader *r, size_t limit, const char **ret, size_t *ret_len, bool *ret_terminated) {
        size_t scanned = 0;
        int k;

        for (;;) {
                const char *start = r->buf.data ? r->buf.data + r->pos : NULL;
                size_t avail = r->buf.len - r->pos, used = r->pos - r->mark;
                const char *nl = avail > scanned ? memchr(start + scanned, '\n', avail - scanned) : NULL;

                if (nl) {
                        if (used + (size_t) (nl - start) + 1 > limit)
                                return -EFBIG;
                        *ret = start;
                        *ret_len = (size_t) (nl - start);
                        *ret_terminated = true;
                        r->pos += *ret_len + 1;
                        r->line++;
                        return 1;
                }
                if (used + avail > limit)
                        return -EFBIG;
                scanned = avail;
                k = fill(r);
                if (k < 0)
                        return k;
                if (k == 0) {
                        avail = r->buf.len - r->pos;
                        if (avail == 0)
                                return 0;
                        *ret = r->buf.data + r->pos;
                        *ret_len = avail;
                        *ret_terminated = false;
                        r->pos += avail;
                        r->line++;
                        return 1;
                }
        }
}

static bool is_unit_or_dropin(const char *p, size_t n, CatPathFacts *ret) {
        const char *slash, *dot;

        slash = memrchr(p, '/', n);
        if (!slash || (size_t) (slash - p) + 1 >= n)
                return false;
        dot = memrchr(slash, '.', n - (size_t) (slash - p));
        if (!dot)
                return false;

        *ret = (CatPathFacts) { .name = (size_t) (slash - p) + 1, .type = _UNIT_TYPE_INVALID };
        if ((size_t) (p + n - dot) == 5 && memcmp(dot, ".conf", 5) == 0) {
                /* A drop-in lives in a directory whose name ends in ".d". */
                ret->conf = true;
                return slash - p >= 2 && memcmp(slash - 2, ".d", 2) == 0;
        }

        ret->type = unit_type_from_mem(dot + 1, (size_t) (p + n - dot - 1));
        return ret->type >= 0;
}

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Whether any byte is a control character (below 0x20, or DEL). With
 * SSE2 sixteen bytes at a time (a byte is at most 0x1f when subtracting
 * 0x1f with saturation leaves zero), otherwise eight: a borrow in the
 * subtraction starts only at a byte below the constant, so a set high bit
 * means there is one. */
static bool has_control(const char *s, size_t n) {
        size_t i = 0;
        uint64_t bad = 0;

#if defined(__SSE2__)
        const __m128i x1f = _mm_set1_epi8(0x1f), del = _mm_set1_epi8(0x7f), zero = _mm_setzero_si128();

        for (; n - i >= 16; i += 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) (s + i));

                if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(v, x1f), zero),
                                                   _mm_cmpeq_epi8(v, del))) != 0)
                        return true;
        }
        /* The rest as the last sixteen bytes, which overlap those seen. */
        if (i < n && n >= 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) (s + n - 16));

                return _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(v, x1f), zero),
                                                      _mm_cmpeq_epi8(v, del))) != 0;
        }
#endif
        for (; n - i >= 8; i += 8) {
                uint64_t w, d;

                memcpy(&w, s + i, 8);
                d = w ^ (ONES * 0x7f);
                bad |= ((w - ONES * 0x20) & ~w) | ((d - ONES) & ~d);
        }
        if (bad & HIGHS)
                return true;
        for (; i < n; i++)
                if ((unsigned char) s[i] < ' ' || s[i] == 0x7f)
                        return true;
        return false;
}

/* What is_unit_or_dropin() says after has_control(), for a path of at
 * least 16 bytes (most are), with fewer steps: -1 if it has a control
 * byte; else 1 if it names a unit or a drop-in (what it names in *ret), 0
 * if not. Sixteen bytes at a time: the control bytes of all blocks are
 * gathered in one vector and looked at once (the last block overlaps the
 * one before); the last '/' is looked for from the end, block by block (a
 * unit's name is mostly within the last one or two), and the last '.'
 * after it in the last block, where a name's suffix is (all suffixes
 * looked for are shorter). Shorter paths, or
 * without SSE2, the two functions. */
static int scan_header_path(const char *p, size_t n, CatPathFacts *ret) {
#if defined(__SSE2__)
        const __m128i x1f = _mm_set1_epi8(0x1f), del = _mm_set1_epi8(0x7f), zero = _mm_setzero_si128();
        __m128i ctl = zero, v;
        size_t slash, dot, at;
        unsigned m;

        if (n < 16)
                goto general;
        for (size_t i = 0; i + 16 < n; i += 16) {
                v = _mm_loadu_si128((const __m128i *) (const void *) (p + i));
                ctl = _mm_or_si128(ctl, _mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(v, x1f), zero),
                                                     _mm_cmpeq_epi8(v, del)));
        }
        v = _mm_loadu_si128((const __m128i *) (const void *) (p + n - 16));
        ctl = _mm_or_si128(ctl, _mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(v, x1f), zero),
                                             _mm_cmpeq_epi8(v, del)));
        if (_mm_movemask_epi8(ctl) != 0)
                return -1;

        /* Going back from the end, the first block with a '/' has the last
         * one as its highest (a block moved to the start overlaps only
         * bytes without one). */
        for (at = n - 16;; at = at >= 16 ? at - 16 : 0) {
                m = (unsigned) _mm_movemask_epi8(
                        _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) (const void *) (p + at)), _mm_set1_epi8('/')));
                if (m != 0) {
                        slash = at + 31 - (unsigned) __builtin_clz(m);
                        break;
                }
                if (at == 0)
                        return 0;
        }
        if (slash + 1 >= n)
                return 0;
        /* The '.' bytes of the last block that come after the '/'. A '.'
         * further back would leave a suffix too long for ".conf" or any
         * unit type: the path names neither. */
        m = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
        if (slash + 1 > n - 16)
                m &= ~0u << (slash + 1 - (n - 16));
        if (m == 0)
                return 0;
        dot = n - 16 + 31 - (unsigned) __builtin_clz(m);
        *ret = (CatPathFacts) { .name = slash + 1, .type = _UNIT_TYPE_INVALID };
        if (n - dot == 5 && memcmp(p + dot, ".conf", 5) == 0) {
                /* A drop-in lives in a directory whose name ends in ".d". */
                ret->conf = true;
                return slash >= 2 && memcmp(p + slash - 2, ".d", 2) == 0;
        }
        ret->type = unit_type_from_mem(p + dot + 1, n - dot - 1);
        return ret->type >= 0;
general:
#endif
        if (has_control(p, n))
                return -1;
        return is_unit_or_dropin(p, n, ret);
}

static bool path_is_plausible(const char *path, size_t n, CatPathFacts *ret) {
        if (n < 2 || path[0] != '/')
                return false;
        if (has_control(path, n))
                return false;
        return is_unit_or_dropin(path, n, ret);
}

bool cat_header_path_is_plausible(const char *path, size_t n) {
        CatPathFacts facts;

        return path_is_plausible(path, n, &facts);
}

int cat_dropin_unit_name(const char *path, char **ret) {
        const char *slash = strrchr(path, '/'), *dir;
        size_t n;

        if (!slash || !endswith(path, ".conf"))
                return 0;
        for (dir = slash; dir > path && dir[-1] != '/'; dir--)
                ;
        n = (size_t) (slash - dir);
        if (n < 3 || memcmp(slash - 2, ".d", 2) != 0)
                return 0;
        *ret = strndup(dir, n - 2);
        return *ret ? 1 : -ENOMEM;
}

static bool mem_endswith(const char *s, size_t n, const char *suffix) {
        size_t k = strlen(suffix);

        return n > k && memcmp(s + n - k, suffix, k) == 0;
}

/* "# /path" or "# Unit NAME is masked." / "# Unit NAME could not be loaded." */
/* systemctl colours headers and adds OSC 8 hyperlinks on a terminal: drop
 * CSI sequences (ESC [ ... final byte) and OSC sequences (ESC ] ... BEL or
 * ESC \\) so that a captured terminal session reads like piped output. */
static char *strip_terminal_escapes(const char *l, size_t n, size_t *ret_len) {
        char *out = malloc(n + 1);
        size_t k = 0;

        if (!out)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                if (l[i] != '\x1b' || i + 1 >= n) {
                        out[k++] = l[i];
                        continue;
                }
                if (l[i + 1] == '[') {
                        for (i += 2; i < n && !((unsigned char) l[i] >= 0x40 && (unsigned char) l[i] <= 0x7e); i++)
                                ;
                } else if (l[i + 1] == ']') {
                        for (i += 2; i < n; i++) {
                                if (l[i] == '\a')
                                        break;
                                if (l[i] == '\x1b' && i + 1 < n && l[i + 1] == '\\') {
                                        i++;
                                        break;
                                }
                        }
                } else
                        out[k++] = l[i];
        }
        out[k] = '\0';
        *ret_len = k;
        return out;
}

static int classify_plain_header(CatReader *r, const char *l, size_t n, const char **ret_path, size_t *ret_len);

/* 1 for a header, 0 for content. A header's path in *ret_path (in l, or
 * in r->header_path: not NUL-terminated), *ret_len bytes long; NULL for a
 * note. What the path names in r->header_facts. */
static int classify_header(CatReader *r, const char *l, size_t n, const char **ret_path, size_t *ret_len) {
        _cleanup_free_ char *plain = NULL;
        size_t k;
        int q;

        /* The common header: "# /path" without a control byte (so without
         * an escape sequence), its path looked at once. */
        if (n > 3 && memcmp(l, "# /", 3) == 0) {
                q = scan_header_path(l + 2, n - 2, &r->header_facts);
                if (q >= 0) {
                        if (q == 0)
                                return 0;
                        *ret_path = l + 2;
                        *ret_len = n - 2;
                        return 1;
                }
        }
        if (n < 4096 && memchr(l, '\x1b', n)) {
                /* The framing is kept as a C string: a line with a NUL byte,
                 * even one hidden inside an escape sequence, is content. */
                if (memchr(l, '\0', n))
                        return 0;
                plain = strip_terminal_escapes(l, n, &k);
                if (!plain)
                        return -ENOMEM;
                q = classify_plain_header(r, plain, k, ret_path, ret_len);
                if (q <= 0 || !*ret_path)
                        return q;
                /* The path outlives plain. */
                r->header_path.len = 0;
                if (strbuf_append(&r->header_path, *ret_path, *ret_len) < 0)
                        return -ENOMEM;
                *ret_path = r->header_path.data;
                return 1;
        }
        return classify_plain_header(r, l, n, ret_path, ret_len);
}

static int classify_plain_header(CatReader *r, const char *l, size_t n, const char **ret_path, size_t *ret_len) {
        if (n > 3 && memcmp(l, "# /", 3) == 0 && path_is_plausible(l + 2, n - 2, &r->header_facts)) {
                *ret_path = l + 2;
                *ret_len = n - 2;
                return 1;
        }
        if (n > 7 && memcmp(l, "# Unit ", 7) == 0 && memchr(l, '\0', n) == NULL &&
            (mem_endswith(l + 7, n - 7, " is masked.") ||
             mem_endswith(l + 7, n - 7, " could not be loaded."))) {
                *ret_path = NULL;
                *ret_len = 0;
                return 1;
        }
        return 0;
}

/* Keeps the header just classified (its path, NULL for a note, and what
 * the path names, in r->header_facts) for the next file. */
static int stash_header(CatReader *r, const char *l, size_t n, bool terminated, bool blank_before,
                        const char *path, size_t path_len) {
        /* Blank line, header, terminator, and after its NUL the path: one
         * allocation, the framing's, which the path is borrowed from. */
        size_t path_room = path ? path_len + 1 : 0, need = n + 3 + path_room;
        char *fr, *p;

        /* Every framing has room for CAT_FRAMING_ROOM bytes at least, so
         * that one given back (cat_reader_recycle_framing()) serves most
         * headers after it. */
        if (need <= CAT_FRAMING_ROOM && r->spare_framing)
                fr = TAKE_PTR(r->spare_framing);
        else
                fr = malloc(MAX(need, CAT_FRAMING_ROOM));
        if (!fr)
                return -ENOMEM;
        p = fr;
        if (blank_before)
                *p++ = '\n';
        memcpy(p, l, n);
        p += n;
        if (terminated)
                *p++ = '\n';
        *p++ = '\0';
        free(r->next_framing);
        r->next_framing = fr;
        r->next_path = NULL;
        if (path) {
                memcpy(p, path, path_len);
                p[path_len] = '\0';
                r->next_path = p;
                r->next_path_len = path_len;
                r->next_facts = r->header_facts;
        }
        r->next_line = r->line;
        r->next_is_note = !path;
        return 0;
}

static int read_bare(CatReader *r, StrBuf *content, const char *first, size_t n, bool terminated,
                     CatFile *ret) {
        int k;

        if (n + terminated > r->max_file)
                return -EFBIG;
        k = strbuf_append(content, first, n);
        if (k >= 0 && terminated)
                k = strbuf_append_char(content, '\n');
        while (k >= 0) {
                if (r->buf.len - r->pos > 0) {
                        if (content->len + (r->buf.len - r->pos) > r->max_file)
                                return -EFBIG;
                        k = strbuf_append(content, r->buf.data + r->pos, r->buf.len - r->pos);
                        r->pos = r->mark = r->buf.len;
                        continue;
                }
                k = fill(r);
                if (k == 0)
                        break;
        }
        if (k < 0)
                return k;
        r->done = true;
        *ret = (CatFile) { .framing = malloc(CAT_FRAMING_ROOM), .header_line = 0 };
        if (!ret->framing)
                return -ENOMEM;
        ret->framing[0] = '\0';
        ret->size = content->len;
        ret->data = strbuf_steal(content);
        if (!ret->data) {
                free(ret->framing);
                return -ENOMEM;
        }
        return 1;
}

/* Lends buf[from..to) as the file's content, without a copy. The byte at
 * buf[to] becomes its NUL: it is the blank line before the next header
 * (already read, and kept in the framing) or the NUL after the input. */
static void take_content(CatReader *r, size_t from, size_t to, CatFile *ret) {
        ret->size = to - from;
        ret->data = r->buf.data + from;
        ret->data[ret->size] = '\0';
        ret->borrowed = true;
}

/* A line that may be a header or a note, judged on its first bytes (the
 * rest is up to classify_header()): "# /", "# Unit ", or an escape
 * sequence first (colour) or after "# " (a hyperlink, without colour). */
static bool maybe_header(const char *l, size_t n) {
        if (n <= 2 || n > CAT_HEADER_MAX)
                return false;
        return l[0] == '\x1b' || (l[0] == '#' && l[1] == ' ' && (l[2] == '/' || l[2] == 'U' || l[2] == '\x1b'));
}

/* Whether the line at p (avail bytes of it in the buffer) needs a look: a
 * blank line, or one that may be a header: an escape sequence first, or
 * '#' followed by what maybe_header() looks for (when those bytes are not
 * in the buffer yet, it may be). A comment like "# text" is content
 * wherever it stands. */
static _always_inline_ bool line_needs_look(const char *p, size_t avail) {
        if (p[0] == '\n' || p[0] == '\x1b')
                return true;
        if (p[0] != '#')
                return false;
        return avail < 3 || (p[1] == ' ' && (p[2] == '/' || p[2] == 'U' || p[2] == '\x1b'));
}

/* The bytes of a 64-byte block, as bits (bit i for p[i]), of the kinds
 * that decide whether a line needs a look (see line_needs_look()). */
typedef struct BlockBytes {
        uint64_t lf, esc, hash, space, slash_u_esc;
} BlockBytes;

/* From a block's bytes, the lines starting in it that may need a look, as
 * bits (bit i for a line starting at p[i]): an escape sequence first,
 * "# " and then '/', 'U' or ESC (a header or a note, perhaps), or a blank
 * line before one of those or before another blank line. Near the end of
 * the block, where the bytes looked at would be in the next one, a line
 * starting with '#' or LF is counted in, whatever follows: a superset of
 * the lines line_is_plain() refuses, within the block. */
static _always_inline_ uint64_t block_looks(const BlockBytes *b) {
        uint64_t hdr = b->hash & (((b->space >> 1) & (b->slash_u_esc >> 2)) | UINT64_C(3) << 62),
                 first = b->esc | hdr;

        return first | (b->lf & (((first | b->lf) >> 1) | UINT64_C(1) << 63));
}

/* Where the LF bytes of a 64-byte block are, as bits, and in *ret_look the
 * lines starting in it that may need a look (block_looks()). With SSE2
 * sixteen bytes at a time, elsewhere byte by byte. */
static _always_inline_ uint64_t block_newlines(const char *p, uint64_t *ret_look) {
        BlockBytes b = {};

#if defined(__SSE2__) && !defined(CAT_STREAM_SCALAR)
        for (unsigned i = 0; i < 64; i += 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) (p + i)),
                        esc = _mm_cmpeq_epi8(v, _mm_set1_epi8('\x1b'));

                b.lf |= (uint64_t) (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))) << i;
                b.esc |= (uint64_t) (unsigned) _mm_movemask_epi8(esc) << i;
                b.hash |= (uint64_t) (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('#'))) << i;
                b.space |= (uint64_t) (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' '))) << i;
                b.slash_u_esc |= (uint64_t) (unsigned) _mm_movemask_epi8(
                                         _mm_or_si128(esc, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
                                                                        _mm_cmpeq_epi8(v, _mm_set1_epi8('U')))))
                                 << i;
        }
#else
        for (unsigned i = 0; i < 64; i++) {
                b.lf |= (uint64_t) (p[i] == '\n') << i;
                b.esc |= (uint64_t) (p[i] == '\x1b') << i;
                b.hash |= (uint64_t) (p[i] == '#') << i;
                b.space |= (uint64_t) (p[i] == ' ') << i;
                b.slash_u_esc |= (uint64_t) (p[i] == '/' || p[i] == 'U' || p[i] == '\x1b') << i;
        }
#endif
        *ret_look = block_looks(&b);
        return b.lf;
}

/* Whether the line at p + j (room bytes from p on are in the buffer) can
 * be passed over as content. A blank line can, when the line after it
 * needs no look: a header counts only right after a blank line. Most lines
 * start with a byte above '#', which none of those looked at has. */
static _always_inline_ bool line_is_plain(const char *p, size_t j, size_t room) {
        unsigned char c = (unsigned char) p[j];

        if (c > '#')
                return true;
        if (c == '\n')
                return j + 1 < room && !line_needs_look(p + j + 1, room - j - 1);
        return !line_needs_look(p + j, room - j);
}

#if defined(__x86_64__) && defined(__SSE2__) && !defined(CAT_STREAM_SCALAR)
#include <immintrin.h>
#define CAT_STREAM_AVX2 1

/* One half of a block for block_newlines_avx2(): its bits from bit i on. */
static inline __attribute__((target("avx2"))) void block_half_avx2(const char *p, unsigned i, BlockBytes *b) {
        __m256i v = _mm256_loadu_si256((const __m256i *) (const void *) (p + i)),
                esc = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\x1b'));

        b->lf |= (uint64_t) (uint32_t) _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n'))) << i;
        b->esc |= (uint64_t) (uint32_t) _mm256_movemask_epi8(esc) << i;
        b->hash |= (uint64_t) (uint32_t) _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('#'))) << i;
        b->space |= (uint64_t) (uint32_t) _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(' '))) << i;
        b->slash_u_esc |= (uint64_t) (uint32_t) _mm256_movemask_epi8(
                                  _mm256_or_si256(esc, _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('/')),
                                                                       _mm256_cmpeq_epi8(v, _mm256_set1_epi8('U')))))
                          << i;
}

/* The same bits as block_newlines(), 32 bytes at a time. Not always_inline:
 * only the AVX2 copy of skip_plain_lines() may take it in. */
static inline __attribute__((target("avx2"))) uint64_t block_newlines_avx2(const char *p, uint64_t *ret_look) {
        BlockBytes b = {};

        block_half_avx2(p, 0, &b);
        block_half_avx2(p, 32, &b);
        *ret_look = block_looks(&b);
        return b.lf;
}
#endif

/* The number of set bits: the popcnt instruction in the AVX2 copy (every
 * CPU with AVX2 has it), a few steps elsewhere. */
static _always_inline_ unsigned count_bits(uint64_t x) {
        return (unsigned) __builtin_popcountll(x);
}

/* Content lines that need no look, and are whole in the buffer, are passed
 * over in bulk, without returning line by line: such a line is content
 * whatever comes before it, and changes nothing but the position and the
 * line count. Only lines that end within the size cap are passed over, so
 * a file over it fails in read_line() exactly as before. The LF bytes are
 * found 64 at a time; only the first byte of each line after one is read. */
static _always_inline_ void skip_plain_lines_with(CatReader *r, bool avx2) {
        const char *p = r->buf.data + r->pos;
        size_t used = r->pos - r->mark, room, i = 0, base = 0;
        unsigned lines = 0;

        if (r->pos >= r->buf.len || used >= r->max_file || line_needs_look(p, r->buf.len - r->pos))
                return;
        room = MIN(r->buf.len - r->pos, r->max_file - used);

        /* Whole blocks that end before room, so that the line after any
         * LF in them starts within it; i is always the start of a line
         * that needs no look. */
        for (; room - base > 64; base += 64) {
                uint64_t look, stop;
#ifdef CAT_STREAM_AVX2
                uint64_t m = avx2 ? block_newlines_avx2(p + base, &look) : block_newlines(p + base, &look);
#else
                uint64_t m = block_newlines(p + base, &look);
#endif
                /* The LF bytes after which a line starts that may need
                 * a look (the last one's line starts in the next block,
                 * within room: it is counted in unless its first byte
                 * says it is plain); the lines after the others are plain,
                 * and are counted all at once. */
                look = (look >> 1) | (uint64_t) (p[base + 64] == '\n' || p[base + 64] == '#' ||
                                                 p[base + 64] == '\x1b') << 63;
                for (stop = m & look; stop != 0; stop &= stop - 1) {
                        uint64_t upto = stop ^ (stop - 1);   /* up to its lowest bit */
                        size_t j = base + (unsigned) __builtin_ctzll(stop) + 1;

                        lines += (unsigned) count_bits(m & upto);
                        m &= ~upto;
                        i = j;
                        if (!line_is_plain(p, j, room))
                                goto done;
                }
                if (m != 0) {
                        lines += (unsigned) count_bits(m);
                        i = base + 64 - (unsigned) __builtin_clzll(m);
                }
        }
        /* The rest, at most 64 bytes, one LF at a time. */
        for (;;) {
                const char *nl = memchr(p + i, '\n', room - i);

                if (!nl)
                        break;
                i = (size_t) (nl - p) + 1;
                lines++;
                if (i >= room || !line_is_plain(p, i, room))
                        break;
        }
done:
        /* Stopped right after a blank line passed over: stop at that line,
         * so that the caller sees it, and the line after it as such. */
        if (i >= 2 && p[i - 1] == '\n' && p[i - 2] == '\n') {
                i--;
                lines--;
        }
        r->pos += i;
        r->line += lines;
}

/* The AVX2 copy: the same steps, compiled for AVX2, so that the 32-byte
 * search is taken in; chosen at run time (CatReader.avx2). */
#ifdef CAT_STREAM_AVX2
static __attribute__((target("avx2,popcnt"))) void skip_plain_lines_avx2(CatReader *r) {
        skip_plain_lines_with(r, true);
}
#endif

static void skip_plain_lines(CatReader *r) {
#ifdef CAT_STREAM_AVX2
        if (r->avx2) {
                skip_plain_lines_avx2(r);
                return;
        }
#endif
        skip_plain_lines_with(r, false);
}

/* How far from the start of the content the line starting at line_start
 * may end: content ends within the cap; a blank line right after it may
 * still be the framing of the next header; after a blank line comes
 * perhaps a header, which is not content. */
static size_t line_limit(const CatReader *r, size_t line_start, bool after_blank) {
        size_t limit = r->max_file + 1;

        if (after_blank && line_start + CAT_HEADER_MAX + 1 > limit)
                limit = line_start + CAT_HEADER_MAX + 1;
        return limit;
}

/* systemctl cat ends every file with a newline (it prints line by line)
 * and puts a blank line before every header, so a header-like line without
 * a blank line before it is content. But it is also what becomes of the
 * next header when a file lacks its final newline, or ends its lines with
 * CR only, in a stream written some other way (by hand, or by systemctl
 * from before it printed line by line): the next file has merged into this
 * one. Say so, unless the line names this very file (some units start
 * with a comment giving their own path) or a path with blanks, which
 * systemd's unit directories do not have (systemd's own syslog.socket
 * has the comment "# /etc/systemd/system/syslog.service -> " and the
 * path of a syslog daemon's unit). */
static int check_merged_header(CatReader *r, CatFile *f, const char *l, size_t n) {
        const char *path;
        size_t len;
        int k;

        k = classify_header(r, l, n, &path, &len);
        if (k <= 0)
                return k;
        if (path && ((f->path && f->path_len == len && memcmp(path, f->path, len) == 0) ||
                     memchr(path, ' ', len) || memchr(path, '\t', len)))
                return 0;
        return diag_add(&f->diags, DIAG_WARNING, EFFECT_NONE, "cat.merged-header", r->source, r->line, NULL,
                        NULL,
                        "'%.*s' looks like a header, but there is no blank line before it: read as a comment in %s; if that file lacks its final newline (or ends its lines with CR only), the next file has merged into it",
                        (int) n, l, f->path ? f->path : "the note before it");
}

int cat_reader_next(CatReader *r, CatFile *ret) {
        StrBuf content = {};
        /* Offsets from r->mark: reading may move the buffer, never this. */
        size_t last_blank = SIZE_MAX;   /* the latest blank line */
        const char *l, *path, *nl;
        size_t n, line_start, path_len;
        bool term;
        int k;

        if (r->done)
                return 0;

        if (!r->started) {
                r->started = true;
                /* The first line: a header, or the start of bare input. */
                k = read_line(r, MAX(r->max_file, CAT_HEADER_MAX + 1), &l, &n, &term);
                if (k <= 0) {
                        r->done = true;
                        return k;
                }
                k = n <= CAT_HEADER_MAX ? classify_header(r, l, n, &path, &path_len) : 0;
                if (k < 0)
                        return k;
                if (k == 0) {
                        r->bare = true;
                        k = read_bare(r, &content, l, n, term, ret);
                        strbuf_done(&content);
                        return k;
                }
                k = stash_header(r, l, n, term, false, path, path_len);
                if (k < 0)
                        return k;
        }

        if (!r->next_framing) {
                r->done = true;
                return 0;
        }

        zero_small(ret, sizeof(*ret));
        ret->path = r->next_path;
        ret->framing = r->next_framing;
        ret->header_line = r->next_line;
        ret->is_note = r->next_is_note;
        ret->type = _UNIT_TYPE_INVALID;
        if (ret->path) {
                ret->path_len = r->next_path_len;
                ret->name = ret->path + r->next_facts.name;
                ret->conf = r->next_facts.conf;
                ret->type = r->next_facts.type;
        }
        r->next_path = r->next_framing = NULL;
        r->mark = r->pos;

        for (;;) {
                bool after_blank;

                skip_plain_lines(r);
                line_start = r->pos - r->mark;
                after_blank = last_blank != SIZE_MAX && last_blank + 1 == line_start;
                if (r->pos < r->buf.len && r->buf.data[r->pos] == '\n' &&
                    line_start + 1 <= line_limit(r, line_start, after_blank)) {
                        /* A blank line in the buffer: what read_line()
                         * would return, without the search. */
                        r->pos++;
                        r->line++;
                        n = 0;
                        term = true;
                } else if (r->pos < r->buf.len &&
                           (nl = memchr(r->buf.data + r->pos, '\n', r->buf.len - r->pos)) &&
                           line_start + (size_t) (nl - (r->buf.data + r->pos)) + 1 <=
                                   line_limit(r, line_start, after_blank)) {
                        /* A whole line in the buffer, within the limit
                         * (mostly a header after the lines passed over):
                         * what read_line() would return, without its
                         * steps. */
                        l = r->buf.data + r->pos;
                        n = (size_t) (nl - l);
                        term = true;
                        r->pos += n + 1;
                        r->line++;
                } else {
                        k = read_line(r, line_limit(r, line_start, after_blank), &l, &n, &term);
                        if (k < 0)
                                goto fail;
                        if (k == 0)
                                break;
                }

                if (n == 0 && term) {
                        /* All before it is content; the blank line itself
                         * may yet turn out to be framing. */
                        if (line_start > r->max_file) {
                                k = -EFBIG;
                                goto fail;
                        }
                        last_blank = line_start;
                        continue;
                }
                /* A header counts only right after a blank line; that blank
                 * line is framing, not content. */
                if (after_blank && maybe_header(l, n)) {
                        k = classify_header(r, l, n, &path, &path_len);
                        if (k < 0)
                                goto fail;
                        if (k > 0) {
                                k = stash_header(r, l, n, term, true, path, path_len);
                                if (k < 0)
                                        goto fail;
                                take_content(r, r->mark, r->mark + last_blank, ret);
                                return 1;
                        }
                }

                /* Content. */
                if (r->pos - r->mark > r->max_file) {
                        k = -EFBIG;
                        goto fail;
                }
                if (!after_blank && line_start > 0 && maybe_header(l, n)) {
                        k = check_merged_header(r, ret, l, n);
                        if (k < 0)
                                goto fail;
                }
        }

        /* End of input: trailing blank lines belong to the last file. */
        if (r->pos - r->mark > r->max_file) {
                k = -EFBIG;
                goto fail;
        }
        take_content(r, r->mark, r->pos, ret);
        return 1;

fail:
        /* Tell the caller which file could not be read. */
        free(r->failed_path);
        r->failed_path = NULL;
        if (ret->path) {
                r->failed_path = strdup(ret->path);
                if (!r->failed_path) {
                        cat_file_done(ret);
                        return -ENOMEM;
                }
        }
        r->failed_line = ret->header_line;
        cat_file_done(ret);
        return k;
}
