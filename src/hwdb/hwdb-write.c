/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/atomic-file.h"
#include "basic/fileio.h"
#include "hwdb-format.h"
#include "hwdb-write.h"

#define OWNER_NODE UINT32_C(0x80000000)

/* A pool entry is a 32-bit id: an interned string id, or a node index with
 * OWNER_NODE set. Strings sit back to back in the trie's arena, so both
 * kinds give their bytes and length in O(1) without a table. */
static const char *ref_get(const HwdbTrie *t, uint32_t ref, uint32_t *ret_len) {
        if (ref & OWNER_NODE) {
                const HwdbTrieNode *n = &t->nodes[ref & ~OWNER_NODE];

                *ret_len = n->prefix_len;
                /* A trie that holds no record has no prefix arena at all. */
                return n->prefix_len > 0 ? t->prefixes + n->prefix_off : "";
        }
        uint32_t off = t->string_offs[ref];
        uint32_t end = ref + 1 < t->n_strings ? t->string_offs[ref + 1] : (uint32_t) t->strings_len;
        *ret_len = end - off - 1;
        return t->strings + off;
}

/* Orders strings by their reversed bytes, so a string that is a suffix of
 * another sorts right before the strings ending in it. */
static int ref_cmp_reversed(const void *a, const void *b, void *userdata) {
        const HwdbTrie *t = userdata;
        uint32_t ra = *(const uint32_t *) a, rb = *(const uint32_t *) b, i, j;
        const char *x = ref_get(t, ra, &i), *y = ref_get(t, rb, &j);

        while (i > 0 && j > 0) {
                uint8_t cx = (uint8_t) x[--i], cy = (uint8_t) y[--j];

                if (cx != cy)
                        return cx < cy ? -1 : 1;
        }
        if (i != j)
                return i < j ? -1 : 1;
        return ra < rb ? -1 : ra > rb;
}

/* Builds the string pool. Afterwards every node's prefix_off and every
 * entry of string_pool[] hold pool-relative offsets. */
static int build_pool(HwdbTrie *t, char **ret_pool, size_t *ret_len, uint32_t **ret_string_pool) {
        _cleanup_free_ uint32_t *refs = NULL, *string_pool = NULL;
        _cleanup_free_ char *pool = NULL;
        size_t n = 0, len = 0, allocated = 0;
        uint32_t prev_off = 0, prev_len = 0;
        const char *prev = NULL;
        int r;

        refs = malloc_multiply(t->n_nodes + t->n_strings, sizeof(uint32_t));
        string_pool = malloc_multiply(t->n_strings, sizeof(uint32_t));
        if (!refs || !string_pool)
                return -ENOMEM;

        for (size_t i = 0; i < t->n_strings; i++)
                refs[n++] = (uint32_t) i;
        for (size_t i = 0; i < t->n_nodes; i++)
                refs[n++] = (uint32_t) i | OWNER_NODE;

        qsort_r(refs, n, sizeof(uint32_t), ref_cmp_reversed, t);

        /* Offset 0 holds the empty string, like systemd's writer. */
        r = GREEDY_REALLOC(pool, allocated, 1 << 16);
        if (r < 0)
                return r;
        pool[len++] = '\0';

        /* From the back: each string is either a suffix of the one after
         * it (and then of what that one was stored in), or stored anew.
         * Node prefixes are not needed any more once placed, so their
         * fields take the pool offset right away. */
        for (size_t k = n; k-- > 0;) {
                uint32_t xl, off;
                const char *x = ref_get(t, refs[k], &xl);

                if (xl == 0)
                        off = 0;
                else if (prev && xl <= prev_len && memcmp(x, prev + prev_len - xl, xl) == 0)
                        off = prev_off + (prev_len - xl);
                else {
                        if (len + xl + 1 > UINT32_MAX)
                                return -E2BIG;
                        r = GREEDY_REALLOC(pool, allocated, len + xl + 1);
                        if (r < 0)
                                return r;
                        memcpy(pool + len, x, xl);
                        pool[len + xl] = '\0';
                        off = (uint32_t) len;
                        len += xl + 1;
                }
                prev = x;
                prev_len = xl;
                prev_off = off;

                if (refs[k] & OWNER_NODE)
                        t->nodes[refs[k] & ~OWNER_NODE].prefix_off = off;
                else
                        string_pool[refs[k]] = off;
        }

        *ret_pool = TAKE_PTR(pool);
        *ret_len = len;
        *ret_string_pool = TAKE_PTR(string_pool);
        return 0;
}

/* Buffered output on top of a sink. */
typedef struct Out {
        const HwdbSink *sink;
        uint8_t buf[1 << 16];
        size_t len;
} Out;

static int out_flush(Out *o) {
        int r = 0;

        if (o->len > 0)
                r = o->sink->write(o->sink->userdata, o->buf, o->len);
        o->len = 0;
        return r;
}

static int out_write(Out *o, const void *p, size_t n) {
        int r;

        if (n > sizeof(o->buf) - o->len) {
                r = out_flush(o);
                if (r < 0)
                        return r;
                if (n > sizeof(o->buf))
                        return o->sink->write(o->sink->userdata, p, n);
        }
        memcpy(o->buf + o->len, p, n);
        o->len += n;
        return 0;
}

typedef struct WriteFrame {
        uint32_t node;
        uint32_t next;          /* next child to descend into */
} WriteFrame;

static int write_node(Out *o, HwdbTrie *t, uint32_t idx, uint64_t strings_start,
                      const uint32_t *string_pool, unsigned value_size, uint64_t *pos) {
        HwdbTrieNode *n = &t->nodes[idx];
        uint8_t rec[HWDB_VALUE_SIZE];
        unsigned n_children = 0;
        uint64_t n_values = 0;
        int r;

        for (uint32_t c = n->child; c != HWDB_TRIE_NONE; c = t->nodes[c].sibling)
                n_children++;
        for (uint32_t v = n->value; v != HWDB_TRIE_NONE; v = t->values[v].next)
                n_values++;

        memset(rec, 0, sizeof(rec));
        hwdb_put64(rec + HWDB_NODE_PREFIX, strings_start + n->prefix_off);
        rec[HWDB_NODE_CHILDREN] = (uint8_t) n_children;
        hwdb_put64(rec + HWDB_NODE_VALUES, n_values);
        r = out_write(o, rec, HWDB_NODE_SIZE);
        if (r < 0)
                return r;

        for (uint32_t c = n->child; c != HWDB_TRIE_NONE; c = t->nodes[c].sibling) {
                memset(rec, 0, HWDB_CHILD_SIZE);
                rec[HWDB_CHILD_C] = t->nodes[c].edge;
                /* prefix_len now holds the child's file offset. */
                hwdb_put64(rec + HWDB_CHILD_OFF, t->nodes[c].prefix_len);
                r = out_write(o, rec, HWDB_CHILD_SIZE);
                if (r < 0)
                        return r;
        }

        for (uint32_t v = n->value; v != HWDB_TRIE_NONE; v = t->values[v].next) {
                const HwdbTrieValue *val = &t->values[v];

                memset(rec, 0, sizeof(rec));
                hwdb_put64(rec + HWDB_VALUE_KEY, strings_start + string_pool[val->key]);
                hwdb_put64(rec + HWDB_VALUE_VALUE, strings_start + string_pool[val->value]);
                hwdb_put64(rec + HWDB_VALUE_FILENAME, strings_start + string_pool[val->filename]);
                hwdb_put32(rec + HWDB_VALUE_LINE, val->line);
                hwdb_put16(rec + HWDB_VALUE_PRIORITY, val->priority);
                r = out_write(o, rec, value_size);
                if (r < 0)
                        return r;
        }

        if (*pos > UINT32_MAX)
                return -E2BIG;
        n->prefix_len = (uint32_t) *pos;
        *pos += HWDB_NODE_SIZE + (uint64_t) n_children * HWDB_CHILD_SIZE +
                n_values * value_size;
        return 0;
}

int hwdb_trie_write(HwdbTrie *t, const HwdbSink *sink) {
        return hwdb_trie_write_full(t, sink, HWDB_VALUE_SIZE);
}

int hwdb_trie_write_full(HwdbTrie *t, const HwdbSink *sink, unsigned value_size) {
        _cleanup_free_ char *pool = NULL;
        _cleanup_free_ uint32_t *string_pool = NULL;
        _cleanup_free_ WriteFrame *stack = NULL;
        _cleanup_free_ Out *o = NULL;
        size_t pool_len, n_stack = 0, stack_allocated = 0;
        uint64_t nodes_len, strings_start, file_size, pos = HWDB_HEADER_SIZE, root_off;
        uint8_t h[HWDB_HEADER_SIZE] = {};
        int r;

        if (value_size != HWDB_VALUE_SIZE && value_size != HWDB_VALUE_SIZE_OLD)
                return -EINVAL;

        r = build_pool(t, &pool, &pool_len, &string_pool);
        if (r < 0)
                return r;

        /* Every node but the root is exactly one child entry. */
        nodes_len = (uint64_t) t->n_nodes * HWDB_NODE_SIZE +
                    (uint64_t) (t->n_nodes - 1) * HWDB_CHILD_SIZE +
                    (uint64_t) t->n_values * value_size;
        strings_start = HWDB_HEADER_SIZE + nodes_len;
        file_size = strings_start + pool_len;

        o = new0(Out, 1);
        if (!o)
                return -ENOMEM;
        o->sink = sink;
        if (sink->begin) {
                r = sink->begin(sink->userdata, file_size);
                if (r < 0)
                        return r;
        }

        /* The root is written last and its size is known up front. */
        {
                uint64_t root_size = HWDB_NODE_SIZE;

                for (uint32_t c = t->nodes[0].child; c != HWDB_TRIE_NONE; c = t->nodes[c].sibling)
                        root_size += HWDB_CHILD_SIZE;
                for (uint32_t v = t->nodes[0].value; v != HWDB_TRIE_NONE; v = t->values[v].next)
                        root_size += value_size;
                root_off = strings_start - root_size;
        }

        memcpy(h + HWDB_HDR_SIGNATURE, HWDB_SIGNATURE, HWDB_SIGNATURE_LEN);
        hwdb_put64(h + HWDB_HDR_TOOL_VERSION, HWDB_TOOL_VERSION);
        hwdb_put64(h + HWDB_HDR_FILE_SIZE, file_size);
        hwdb_put64(h + HWDB_HDR_HEADER_SIZE, HWDB_HEADER_SIZE);
        hwdb_put64(h + HWDB_HDR_NODE_SIZE, HWDB_NODE_SIZE);
        hwdb_put64(h + HWDB_HDR_CHILD_SIZE, HWDB_CHILD_SIZE);
        hwdb_put64(h + HWDB_HDR_VALUE_SIZE, value_size);
        hwdb_put64(h + HWDB_HDR_ROOT_OFF, root_off);
        hwdb_put64(h + HWDB_HDR_NODES_LEN, nodes_len);
        hwdb_put64(h + HWDB_HDR_STRINGS_LEN, pool_len);
        r = out_write(o, h, sizeof(h));
        if (r < 0)
                return r;

        /* Post-order walk with an explicit stack. */
        r = GREEDY_REALLOC(stack, stack_allocated, 64);
        if (r < 0)
                return r;
        stack[n_stack++] = (WriteFrame) { 0, t->nodes[0].child };
        while (n_stack > 0) {
                WriteFrame *f = &stack[n_stack - 1];

                if (f->next != HWDB_TRIE_NONE) {
                        uint32_t c = f->next;

                        f->next = t->nodes[c].sibling;
                        r = GREEDY_REALLOC(stack, stack_allocated, n_stack + 1);
                        if (r < 0)
                                return r;
                        stack[n_stack++] = (WriteFrame) { c, t->nodes[c].child };
                        continue;
                }
                r = write_node(o, t, f->node, strings_start, string_pool, value_size, &pos);
                if (r < 0)
                        return r;
                n_stack--;
        }
        if (pos != strings_start)
                return -EIO;

        r = out_write(o, pool, pool_len);
        if (r < 0)
                return r;
        return out_flush(o);
}

typedef struct MemSink {
        uint8_t *data;
        size_t len, size;
} MemSink;

static int mem_begin(void *userdata, uint64_t size) {
        MemSink *m = userdata;

        if (size > SIZE_MAX)
                return -EFBIG;
        m->data = malloc(size);
        if (!m->data)
                return -ENOMEM;
        m->size = (size_t) size;
        return 0;
}

static int mem_write(void *userdata, const void *data, size_t size) {
        MemSink *m = userdata;

        if (!m->data || size > m->size - m->len)
                return -EIO;
        memcpy(m->data + m->len, data, size);
        m->len += size;
        return 0;
}

int hwdb_trie_write_memory(HwdbTrie *t, void **ret, size_t *ret_size) {
        return hwdb_trie_write_memory_full(t, HWDB_VALUE_SIZE, ret, ret_size);
}

int hwdb_trie_write_memory_full(HwdbTrie *t, unsigned value_size, void **ret, size_t *ret_size) {
        MemSink m = {};
        HwdbSink sink = { mem_begin, mem_write, &m };
        int r;

        r = hwdb_trie_write_full(t, &sink, value_size);
        if (r >= 0 && m.len != m.size)
                r = -EIO;
        if (r < 0) {
                free(m.data);
                return r;
        }
        *ret = m.data;
        *ret_size = m.len;
        return 0;
}

static int fd_write(void *userdata, const void *data, size_t size) {
        return loop_write(*(int *) userdata, data, size);
}

static int fill_file(void *userdata, int fd) {
        HwdbSink sink = { NULL, fd_write, &fd };

        return hwdb_trie_write(userdata, &sink);
}

int hwdb_trie_write_file(HwdbTrie *t, const char *path) {
        return atomic_file_replace_full(path, NULL, 0, 0644, fill_file, t);
}
