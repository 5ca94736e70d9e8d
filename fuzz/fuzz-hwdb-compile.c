/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The hwdb compiler. The input is up to four .hwdb sources separated by a
 * 0xff byte (file priorities 1, 2, ...). Property: after compiling, every
 * lookup answers what the sources say, computed here the slow way from the
 * loaded records: a match string matches a key when the bytes before its
 * first glob byte equal the key's and fnmatch(3) accepts the rest; of the
 * records that set one key, the highest (priority, line) wins. */
#include <errno.h>
#include <fnmatch.h>

#include "fuzz-hwdb.h"
#include "hwdb/hwdb-source.h"
#include "hwdb/hwdb-trie.h"
#include "hwdb/hwdb-write.h"

#define SOURCES_MAX 4
#define KEYS_MAX 64
/* fnmatch(3) backtracks on many stars; the reference only runs on
 * patterns it can finish quickly. */
#define STARS_MAX 6

typedef struct Record {
        char *match;
        const char *key, *value;    /* into the trie's strings */
        uint16_t priority;
        uint32_t line;
} Record;

typedef struct Records {
        Record *items;
        size_t n, allocated;
} Records;

/* Collects every (match string, property) the trie holds, before the
 * writer reuses its fields. */
static void collect(const HwdbTrie *t, uint32_t node, StrBuf *match, Records *recs) {
        const HwdbTrieNode *n = &t->nodes[node];
        size_t len = match->len;

        if (node != 0)
                fuzz_assert(strbuf_append_char(match, (char) n->edge) >= 0);
        if (n->prefix_len > 0)
                fuzz_assert(strbuf_append(match, t->prefixes + n->prefix_off, n->prefix_len) >= 0);

        for (uint32_t v = n->value; v != HWDB_TRIE_NONE; v = t->values[v].next) {
                if (recs->n == recs->allocated) {
                        recs->allocated = recs->allocated ? recs->allocated * 2 : 16;
                        recs->items = realloc(recs->items, recs->allocated * sizeof(Record));
                        fuzz_assert(recs->items);
                }
                recs->items[recs->n++] = (Record) {
                        .match = strdup(match->data),
                        .key = hwdb_trie_string(t, t->values[v].key),
                        .value = hwdb_trie_string(t, t->values[v].value),
                        .priority = t->values[v].priority,
                        .line = t->values[v].line,
                };
                fuzz_assert(recs->items[recs->n - 1].match);
        }
        for (uint32_t c = n->child; c != HWDB_TRIE_NONE; c = t->nodes[c].sibling)
                collect(t, c, match, recs);
        match->len = len;
        match->data[len] = '\0';
}

static bool record_matches(const Record *rec, const char *key) {
        size_t g = strcspn(rec->match, "*?[");

        if (rec->match[g] == '\0')
                return streq(rec->match, key);
        return strncmp(rec->match, key, g) == 0 && strlen(key) >= g &&
               fnmatch(rec->match + g, key + g, 0) == 0;
}

/* The reference answer, in the format of fuzz_hwdb_answer(). */
static void reference(const Records *recs, const char *key, StrBuf *out) {
        const Record **win = fuzz_xmalloc(recs->n * sizeof(Record *));
        size_t n_win = 0;

        strbuf_reset(out);
        for (size_t i = 0; i < recs->n; i++) {
                const Record *r = &recs->items[i];
                size_t w;

                /* systemd never returns keys that do not start with a space. */
                if (r->key[0] != ' ' || !record_matches(r, key))
                        continue;
                for (w = 0; w < n_win; w++)
                        if (streq(win[w]->key, r->key))
                                break;
                if (w == n_win)
                        win[n_win++] = r;
                else if (r->priority > win[w]->priority ||
                         (r->priority == win[w]->priority && r->line > win[w]->line))
                        win[w] = r;
        }
        for (size_t w = 0; w < n_win; w++)
                fuzz_assert(strbuf_printf(out, "%s=%s %u:%u\n", win[w]->key + 1, win[w]->value,
                                          win[w]->priority, win[w]->line) >= 0);
        fuzz_sort_lines(out);
        free(win);
}

static unsigned count_stars(const char *s) {
        unsigned n = 0;

        for (; *s; s++)
                n += *s == '*';
        return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        StrBuf match = {}, key = {}, got = {}, want = {};
        const char *reason = NULL;
        char *keys[KEYS_MAX];
        size_t n_keys = 0, pos = 0;
        DiagList diags = {};
        Records recs = {};
        HwdbTrie *t = NULL;
        HwdbBin *b = NULL;
        bool simple = true;
        void *image;
        size_t image_size;
        int r;

        /* Deep tries recurse in collect(); long inputs add nothing here. */
        if (size > 65536)
                return 0;

        fuzz_assert(hwdb_trie_new(&t) >= 0);
        for (unsigned i = 0; i < SOURCES_MAX && pos <= size; i++) {
                const uint8_t *end = memchr(data + pos, 0xff, size - pos);
                size_t len = end && i + 1 < SOURCES_MAX ? (size_t) (end - data) - pos : size - pos;
                char *src = fuzz_copy(data + pos, len, 0);
                char name[32];

                snprintf(name, sizeof(name), "src%u.hwdb", i + 1);
                r = hwdb_source_parse(t, src, len, name, (uint16_t) (i + 1), &diags);
                free(src);
                fuzz_assert(r >= 0 || r == -E2BIG);
                if (r < 0)
                        goto finish;
                pos += len + 1;
        }

        fuzz_assert(strbuf_reserve(&match, 64) >= 0);
        collect(t, 0, &match, &recs);

        /* Keys: each match string as it is, and instantiated twice. */
        for (size_t i = 0; i < recs.n && n_keys + 3 <= KEYS_MAX; i++) {
                if (i > 0 && streq(recs.items[i].match, recs.items[i - 1].match))
                        continue;
                keys[n_keys++] = strdup(recs.items[i].match);
                fuzz_hwdb_instantiate(recs.items[i].match, "", &key);
                keys[n_keys++] = strdup(key.data);
                fuzz_hwdb_instantiate(recs.items[i].match, "x:Y*9", &key);
                keys[n_keys++] = strdup(key.data);
                fuzz_assert(keys[n_keys - 1] && keys[n_keys - 2] && keys[n_keys - 3]);
        }
        for (size_t i = 0; i < recs.n; i++)
                if (count_stars(recs.items[i].match) > STARS_MAX)
                        simple = false;

        fuzz_assert(hwdb_trie_write_memory(t, &image, &image_size) >= 0);
        fuzz_assert(hwdb_bin_new_from_memory(image, image_size, true, &b, &reason) >= 0);
        fuzz_assert(hwdb_bin_verify(b, &reason) >= 0);

        for (size_t i = 0; i < n_keys; i++) {
                fuzz_assert(fuzz_hwdb_lookup_both(b, keys[i], &got) >= 0);
                /* A key with glob bytes can also walk literally through glob
                 * edges of the trie, which depends on the trie's shape: the
                 * reference covers plain keys. An empty key has no answer
                 * by definition. */
                if (!simple || keys[i][0] == '\0' || strcspn(keys[i], "*?[") != strlen(keys[i]))
                        continue;
                reference(&recs, keys[i], &want);
                if (got.len != want.len || (got.len > 0 && memcmp(got.data, want.data, got.len) != 0)) {
                        fprintf(stderr, "key '%s'\ncompiled:\n%sreference:\n%s", keys[i],
                                got.data ?: "", want.data ?: "");
                        fuzz_assert(!"compiled database answers like the sources");
                }
        }

finish:
        for (size_t i = 0; i < n_keys; i++)
                free(keys[i]);
        for (size_t i = 0; i < recs.n; i++)
                free(recs.items[i].match);
        free(recs.items);
        strbuf_done(&match);
        strbuf_done(&key);
        strbuf_done(&got);
        strbuf_done(&want);
        diag_list_done(&diags);
        hwdb_bin_free(b);
        hwdb_trie_free(t);
        return 0;
}
