/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "hwdb-format.h"
#include "hwdb-glob.h"
#include "hwdb-lookup.h"

/* 128-bit integers hold the position sets of keys under 128 bytes. */
#ifdef __SIZEOF_INT128__
#define HWDB_HAVE_INT128 1
#else
#define HWDB_HAVE_INT128 0
#endif

/* A trie deeper than this is not something any writer produces; it guards
 * the explicit stack against crafted files. */
#define HWDB_MAX_DEPTH 65536u
/* GREEDY_REALLOC with the common case (room enough) inline: a glob scan
 * reserves up to four buffers per node it enters. */
#define RESERVE(array, allocated, need)                                         \
        ((array) && (need) <= (allocated) ? 0 : GREEDY_REALLOC(array, allocated, need))

/* Below this many properties a linear scan beats hashing. */
#define HWDB_INDEX_THRESHOLD 16u

/* Frame d of the scan stack keeps its position set in sets[(d + 1) * words];
 * sets[0] holds the start set. */
struct HwdbScanFrame {
        HwdbNode node;
        uint64_t off;           /* where the node lies: its children lie below */
        unsigned next_child;
        uint8_t mode;           /* MATCH_* */
        uint8_t bracket;        /* BRACKET_* */
        size_t bracket_at;      /* where in the pattern an open bracket began */
        size_t pattern_mark;    /* pattern length before this node */
};

/* A frame of a lean glob scan (glob_scan_fast(), glob_scan_wide()): no
 * pattern and no bracket state; what it read is kept (text, edge) only to
 * rebuild the pattern if a subtree goes to the general scan. */
struct HwdbFastFrame {
        HwdbNode node;
        uint64_t off;
        union {
                uint64_t set;   /* one-word scans; longer keys: in wide_sets */
#if HWDB_HAVE_INT128
                unsigned __int128 set2; /* two-word scans */
#endif
        };
        const char *text;       /* the prefix bytes this frame read */
        int edge;               /* the edge byte into it, or -1 */
        unsigned next_child;
};

/* One level of the literal walk, kept for the next key (hwdb_lookup_next()). */
struct HwdbPathStep {
        /* What a key that shares the level reads, in its first cache line:
         * the levels without glob children are passed over. */
        uint64_t off;           /* the node */
        uint64_t next;          /* the child taken for key[end] */
        size_t end;             /* key position after the node's prefix */
        uint8_t n_globs;
        uint8_t n_decoded;
        bool ordered;           /* children [0, next_i] known to ascend */
        uint8_t glob_c[3];
        unsigned n_children;
        unsigned next_i;        /* next's place in the child array */
        uint64_t children_off;  /* the node's child array, validated */
        uint64_t globs[3];      /* its glob children, in edge order */
        HwdbNode glob_nodes[3]; /* the first n_decoded of them, decoded */
        int16_t glob_need[3];   /* and a byte the rest of a key needs for
                                 * any match below them, or -1 */
        uint32_t need_checks[3], need_misses[3]; /* how it went so far */
};

/* How far the position set can be trusted for the pattern read so far. */
enum {
        MATCH_EXACT,            /* exactly fnmatch's answer */
        MATCH_SUPERSET,         /* a bracket with a range was counted as '?':
                                 * may say yes wrongly, never no; fnmatch
                                 * decides */
        MATCH_OFF,              /* unknown ('\\', classes): no pruning */
};

/* Where we are in a bracket expression. */
enum {
        BRACKET_NONE,
        BRACKET_OPEN,           /* just after '[' */
        BRACKET_NEGATED,        /* just after "[!" or "[^" */
        BRACKET_INSIDE,         /* after the first member */
};

/* Ends the bracket expression pattern[from] ('[') to pattern[to] (']'):
 * the set was advanced as if by '?' at its '[', now only the positions
 * after a member byte (or, negated, after any other byte) stay. A range
 * ('-' between members) is not modelled: the set stays a superset. Returns
 * true when the set became empty. */
static bool bracket_close(HwdbLookup *l, uint64_t *s, uint8_t *mode, size_t from, size_t to) {
        const char *p = l->pattern;
        size_t i = from + 1;
        bool negated = p[i] == '!' || p[i] == '^';

        if (negated)
                i++;
        for (size_t j = i + 1; j + 1 < to; j++)
                if (p[j] == '-') {
                        *mode = MATCH_SUPERSET;
                        return false;
                }
        hwdb_glob_restrict(l->glob, s, p + i, to - i, negated);
        return hwdb_glob_set_empty(l->glob, s);
}

/* Advances the set over the pattern byte at pattern[at]. A bracket
 * expression counts as '?' until it closes, then as its members; a class
 * inside it or a backslash anywhere turns the set off. Returns true when
 * the set became empty, i.e. the subtree can be skipped. */
static inline bool pattern_step(HwdbLookup *l, uint64_t *s, uint8_t *mode, uint8_t *bracket,
                                size_t *bracket_at, size_t at) {
        uint8_t c = (uint8_t) l->pattern[at];

        if (*mode == MATCH_OFF)
                return false;

        if (*bracket != BRACKET_NONE) {
                if (c == '[' || c == '\\') {
                        /* classes, collating elements, escapes */
                        *mode = MATCH_OFF;
                        return false;
                }
                if (*bracket == BRACKET_OPEN && (c == '!' || c == '^'))
                        *bracket = BRACKET_NEGATED;
                else if (*bracket == BRACKET_INSIDE && c == ']') {
                        *bracket = BRACKET_NONE;
                        return bracket_close(l, s, mode, *bracket_at, at);
                } else
                        *bracket = BRACKET_INSIDE;  /* a first ']' is a member */
                return false;
        }

        if (c == '\\') {
                *mode = MATCH_OFF;
                return false;
        }
        if (c == '[') {
                /* If it never closes, fnmatch takes '[' literally, which '?'
                 * covers too; the bytes after it are never stepped then. */
                *bracket = BRACKET_OPEN;
                *bracket_at = at;
                c = '?';
        }
        if (l->glob->words == 1) {
                s[0] = hwdb_glob_step1(l->glob, s[0], c);
                return s[0] == 0;
        }
        (void) hwdb_glob_step(l->glob, s, s, c);
        return hwdb_glob_set_empty(l->glob, s);
}

void hwdb_lookup_done(HwdbLookup *l) {
        free(l->props);
        free(l->index);
        free(l->pattern);
        free(l->stack);
        free(l->sets);
        free(l->path);
        free(l->path_key);
        free(l->fast);
        free(l->wide_sets);
        if (l->glob)
                hwdb_glob_key_done(l->glob);
        free(l->glob);
        *l = (HwdbLookup) {};
}

static uint32_t hash_string(const char *s) {
        uint32_t h = 2166136261u;

        for (; *s; s++)
                h = (h ^ (uint8_t) *s) * 16777619u;
        return h;
}

static int index_rebuild(HwdbLookup *l) {
        size_t size = 64;

        while (size < l->n_props * 2 + 2)
                size *= 2;
        if (size > l->index_size) {
                uint32_t *n = reallocarray_safe(l->index, size, sizeof(uint32_t));

                if (!n)
                        return -ENOMEM;
                l->index = n;
                l->index_size = size;
        }
        memset(l->index, 0, l->index_size * sizeof(uint32_t));
        for (size_t i = 0; i < l->n_props; i++) {
                size_t mask = l->index_size - 1, h = hash_string(l->props[i].key) & mask;

                while (l->index[h] != 0)
                        h = (h + 1) & mask;
                l->index[h] = (uint32_t) i + 1;
        }
        return 0;
}

static HwdbProperty *find_property(HwdbLookup *l, const char *key) {
        if (l->n_props < HWDB_INDEX_THRESHOLD) {
                for (size_t i = 0; i < l->n_props; i++)
                        if (streq(l->props[i].key, key))
                                return &l->props[i];
                return NULL;
        }

        size_t mask = l->index_size - 1, h = hash_string(key) & mask;
        for (; l->index[h] != 0; h = (h + 1) & mask)
                if (streq(l->props[l->index[h] - 1].key, key))
                        return &l->props[l->index[h] - 1];
        return NULL;
}

/* hwdb_bin_string() as a pointer, NULL when out of bounds: no local has
 * its address taken, so add_property() needs no stack protector. */
static __attribute__((noinline)) const char *string_slow(const HwdbBin *b, uint64_t off) {
        const char *s;

        return hwdb_bin_string_slow(b, off, &s) < 0 ? NULL : s;
}

static inline const char *string_at(const HwdbBin *b, uint64_t off) {
        if (off >= b->size)
                return NULL;
        if (!b->nul_terminated)
                return string_slow(b, off);
        return (const char *) b->data + off;
}

static int add_property(HwdbLookup *l, const HwdbBin *b, const uint8_t *entry) {
        HwdbProperty *old, *np;
        const char *key, *value;
        uint64_t filename_off = 0;
        uint32_t line = 0;
        uint16_t priority = 0;
        int r;

        key = string_at(b, hwdb_get64(entry + HWDB_VALUE_KEY));
        if (!key)
                return -EBADMSG;
        /* Keys not starting with a space are reserved; systemd skips them. */
        if (key[0] != ' ')
                return 0;
        key++;
        value = string_at(b, hwdb_get64(entry + HWDB_VALUE_VALUE));
        if (!value)
                return -EBADMSG;
        if (b->value_size >= HWDB_VALUE_SIZE) {
                filename_off = hwdb_get64(entry + HWDB_VALUE_FILENAME);
                line = hwdb_get32(entry + HWDB_VALUE_LINE);
                priority = hwdb_get16(entry + HWDB_VALUE_PRIORITY);
        }

        old = find_property(l, key);
        if (old) {
                if (b->value_size >= HWDB_VALUE_SIZE) {
                        bool lower;

                        /* Older writers left the priority at 0; then the
                         * file name offsets stand in for it. */
                        if (priority == 0)
                                lower = filename_off < old->filename_off ||
                                        (filename_off == old->filename_off && line < old->line);
                        else
                                lower = priority < old->priority || (priority == old->priority && line < old->line);
                        if (lower)
                                return 0;
                }
                /* Replace the value but keep the position. */
                *old = (HwdbProperty) { key, value, filename_off, line, priority };
                return 0;
        }

        r = RESERVE(l->props, l->props_allocated, l->n_props + 1);
        if (r < 0)
                return r;
        np = &l->props[l->n_props++];
        *np = (HwdbProperty) { key, value, filename_off, line, priority };

        if (l->n_props == HWDB_INDEX_THRESHOLD ||
            (l->n_props > HWDB_INDEX_THRESHOLD && l->n_props * 2 + 2 > l->index_size))
                return index_rebuild(l);
        if (l->n_props > HWDB_INDEX_THRESHOLD) {
                size_t mask = l->index_size - 1, h = hash_string(key) & mask;

                while (l->index[h] != 0)
                        h = (h + 1) & mask;
                l->index[h] = (uint32_t) l->n_props;
        }
        return 0;
}

static int add_values(HwdbLookup *l, const HwdbBin *b, const HwdbNode *n) {
        for (uint64_t i = 0; i < n->n_values; i++) {
                int r = add_property(l, b, hwdb_bin_value_entry(b, n, i));
                if (r < 0)
                        return r;
        }
        return 0;
}

static int pattern_reserve(HwdbLookup *l, const HwdbBin *b, size_t extra) {
        /* No path through a well-formed trie spells a string longer than the
         * file itself; anything longer comes from a cycle. */
        if (extra > b->size || l->pattern_len + extra > b->size)
                return -ELOOP;
        return RESERVE(l->pattern, l->pattern_allocated, l->pattern_len + extra + 1);
}

/* Pushes the node at off onto the scan stack: its edge byte (if any) and its
 * prefix from byte skip on join the pattern. Returns 0 without pushing when
 * the pattern so far cannot match any start of the key. */
static int scan_enter_node(HwdbLookup *l, const HwdbBin *b, const HwdbNode *n, uint64_t off, int edge,
                           size_t skip, uint8_t mode, uint8_t bracket, size_t bracket_at) {
        const size_t words = l->glob->words;
        uint64_t *parent, *s = NULL;
        HwdbScanFrame *f;
        size_t mark = l->pattern_len, len;
        const char *p;
        int r;

        if (++l->visits > l->max_visits || l->n_stack >= HWDB_MAX_DEPTH)
                return -ELOOP;

        p = n->prefix + skip;
        len = strlen(p);
        r = pattern_reserve(l, b, len + 1);
        if (r < 0)
                return r;

        if (mode != MATCH_OFF) {
                r = RESERVE(l->sets, l->sets_allocated, (l->n_stack + 2) * words);
                if (r < 0)
                        return r;
                parent = l->sets + l->n_stack * words;
                s = parent + words;
                if (words == 1)
                        s[0] = parent[0];
                else
                        memcpy(s, parent, words * sizeof(uint64_t));
        }
        if (edge >= 0) {
                l->pattern[l->pattern_len++] = (char) edge;
                if (pattern_step(l, s, &mode, &bracket, &bracket_at, l->pattern_len - 1))
                        goto prune;
        }
        memcpy(l->pattern + l->pattern_len, p, len);
        l->pattern_len += len;
        for (size_t i = l->pattern_len - len; mode != MATCH_OFF && i < l->pattern_len; i++)
                if (pattern_step(l, s, &mode, &bracket, &bracket_at, i))
                        goto prune;

        r = RESERVE(l->stack, l->stack_allocated, l->n_stack + 1);
        if (r < 0)
                return r;
        f = &l->stack[l->n_stack++];
        f->node = *n;
        f->off = off;
        f->next_child = 0;
        f->mode = mode;
        f->bracket = bracket;
        f->bracket_at = bracket_at;
        f->pattern_mark = mark;
        return 0;

prune:
        l->pattern_len = mark;
        return 0;
}

static int scan_enter(HwdbLookup *l, const HwdbBin *b, uint64_t off, int edge, size_t skip,
                      uint8_t mode, uint8_t bracket, size_t bracket_at) {
        HwdbNode n;
        int r;

        r = hwdb_bin_node(b, off, &n);
        if (r < 0)
                return r;
        return scan_enter_node(l, b, &n, off, edge, skip, mode, bracket, bracket_at);
}

/* fnmatch(3) with flags 0 for p, read as if a '*' came first when
 * leading_star, on s: literal bytes, '*' and '?' by the usual greedy walk
 * (the last '*' takes one more byte on a mismatch), which is exact for
 * them. Returns -1 when it meets '[' or '\\', which it leaves to fnmatch.
 * Pattern bytes it never reaches do not matter: it then has either failed
 * on a literal before any '*', or run out of key where every byte left but
 * '*' needs one more. */
static int simple_match(const char *p, const char *s, bool leading_star) {
        const char *star = leading_star ? p : NULL, *mark = s;

        if (leading_star && *p == '\0')
                return 1;
        while (*s != '\0') {
                char c = *p;

                if (c == '[' || c == '\\')
                        return -1;
                if (c == '?' || (c == *s && c != '*')) {
                        p++;
                        s++;
                } else if (c == '*') {
                        star = ++p;
                        mark = s;
                        if (*p == '\0')
                                return 1;       /* a last '*' takes the rest */
                } else if (star) {
                        p = star;
                        s = ++mark;
                } else
                        return 0;
        }
        while (*p == '*')
                p++;
        return *p == '\0';
}

/* A glob start without children, the most common kind (a pattern's last
 * '*'): its pattern (edge byte, then the prefix from skip) is matched
 * against the rest of the key directly, without the matcher's per-key
 * tables or the scan stack. */
static int glob_leaf(HwdbLookup *l, const HwdbBin *b, const HwdbNode *n, int edge, size_t skip,
                     const char *key, size_t pos) {
        const char *p = n->prefix + skip, *s = key + pos;
        int m, r;

        if (++l->visits > l->max_visits)
                return -ELOOP;
        if (n->n_values == 0)
                return 0;

        if (edge == '*')
                m = simple_match(p, s, true);
        else if (edge == '?')
                m = *s == '\0' ? 0 : simple_match(p, s + 1, false);
        else if (edge < 0)
                m = simple_match(p, s, false);
        else
                m = -1;
        if (m < 0) {
                size_t len = strlen(p);

                l->pattern_len = 0;
                r = pattern_reserve(l, b, len + 1);
                if (r < 0)
                        return r;
                if (edge >= 0)
                        l->pattern[l->pattern_len++] = (char) edge;
                memcpy(l->pattern + l->pattern_len, p, len + 1);
                m = fnmatch(l->pattern, s, 0) == 0;
                l->pattern_len = 0;
        }
        return m ? add_values(l, b, n) : 0;
}

/* The edge bytes a one-position set cannot rule out by comparing. */
static const bool fast_special[256] = { ['*'] = true, ['?'] = true, ['['] = true, ['\\'] = true };

/* No byte the sets do not model met: the set steps over the whole text. */
#define NO_STOP SIZE_MAX
/* The edge byte itself is one the sets do not model. */
#define EDGE_STOP (SIZE_MAX - 1)

/* A bracket expression the sets model exactly: members without ranges,
 * classes, collating elements or escapes, and closed within p, which
 * starts just after its '['. Returns the bytes it takes after the '['
 * (through its ']') and sets the members, or returns 0 for anything else
 * (then the general scan and fnmatch decide). */
static size_t simple_bracket(const char *p, bool *ret_negated, size_t *ret_first, size_t *ret_n) {
        size_t i = 0, first;

        *ret_negated = p[0] == '!' || p[0] == '^';
        if (*ret_negated)
                i++;
        first = i;
        if (p[i] == ']')
                i++;            /* a first ']' is a member */
        for (; p[i] != ']'; i++)
                if (p[i] == '\0' || p[i] == '[' || p[i] == '\\' || p[i] == '-')
                        return 0;
        *ret_first = first;
        *ret_n = i - first;
        return i + 1;
}

/* The general glob scan: depth-first below node n (entered by edge, its
 * prefix read from byte skip), children in edge order first, then the node
 * itself, testing every node that has values against the rest of the key:
 * brackets, escapes and anything the sets do not model are decided by
 * fnmatch(3) on the pattern read so far. The caller has put the pattern
 * read before n in l->pattern and, when the key is usable, its position
 * set in l->sets[0, words). */
static int glob_scan_general(HwdbLookup *l, const HwdbBin *b, const HwdbNode *n, uint64_t off, int edge,
                             size_t skip, const char *key, size_t pos) {
        uint8_t mode = l->glob->usable ? MATCH_EXACT : MATCH_OFF;
        bool one_word = l->glob->usable && l->glob->words == 1;
        int r;

        l->n_stack = 0;
        r = scan_enter_node(l, b, n, off, edge, skip, mode, BRACKET_NONE, 0);
        if (r < 0)
                return r;

        while (l->n_stack > 0) {
                HwdbScanFrame *f = &l->stack[l->n_stack - 1];

                if (f->next_child < f->node.n_children) {
                        uint64_t child;
                        uint8_t c;

                        hwdb_bin_child(b, &f->node, f->next_child++, &c, &child);
                        if (child >= f->off)
                                return -ELOOP;
                        /* Most children of a glob scan are ruled out by
                         * their edge byte alone: one step of a one-word
                         * set, without reading the child (scan_enter()
                         * would come to the same answer after decoding it). */
                        if (one_word && f->mode != MATCH_OFF && f->bracket == BRACKET_NONE && c != '[' &&
                            c != '\\' && hwdb_glob_step1(l->glob, l->sets[l->n_stack], c) == 0)
                                continue;
                        r = scan_enter(l, b, child, c, 0, f->mode, f->bracket, f->bracket_at);
                        if (r < 0)
                                return r;
                        continue;
                }

                if (f->node.n_values > 0) {
                        bool match;

                        /* The set answers when exact, and its "no" is
                         * final as long as it is a superset. A bracket
                         * still open here never closes: fnmatch reads the
                         * '[' literally and the set is of no use. */
                        if (f->mode != MATCH_OFF && f->bracket == BRACKET_NONE &&
                            !hwdb_glob_accepts(l->glob, l->sets + l->n_stack * l->glob->words))
                                match = false;
                        else if (f->mode == MATCH_EXACT && f->bracket == BRACKET_NONE)
                                match = true;
                        else {
                                l->pattern[l->pattern_len] = '\0';
                                match = fnmatch(l->pattern, key + pos, 0) == 0;
                        }
                        if (match) {
                                r = add_values(l, b, &f->node);
                                if (r < 0)
                                        return r;
                        }
                }
                l->pattern_len = f->pattern_mark;
                l->n_stack--;
        }
        return 0;
}

/* A fast scan (below) met '[' or '\\' with a live set: node n and its
 * subtree go to the general scan. The pattern read so far is rebuilt from
 * the fast stack's frames [0, n_stack); then, when the stop is at byte j
 * of n's text (its prefix from skip), edge and those j bytes. set is the
 * position set before the stop. Adds n's answers where the fast scan would
 * have. */
static int fast_handover(HwdbLookup *l, const HwdbBin *b, size_t n_stack, const HwdbNode *n, uint64_t off,
                         int edge, size_t skip, size_t j, const uint64_t *set, const char *key, size_t pos,
                         uint64_t *visits) {
        const size_t words = l->glob->words;
        int r;

        l->pattern_len = 0;
        for (size_t d = 0; d < n_stack; d++) {
                const HwdbFastFrame *f = &l->fast[d];
                size_t len = strlen(f->text);

                r = pattern_reserve(l, b, len + 1);
                if (r < 0)
                        return r;
                if (f->edge >= 0)
                        l->pattern[l->pattern_len++] = (char) f->edge;
                memcpy(l->pattern + l->pattern_len, f->text, len);
                l->pattern_len += len;
        }
        if (j != NO_STOP && j != EDGE_STOP) {
                r = pattern_reserve(l, b, j + 1);
                if (r < 0)
                        return r;
                if (edge >= 0)
                        l->pattern[l->pattern_len++] = (char) edge;
                memcpy(l->pattern + l->pattern_len, n->prefix + skip, j);
                l->pattern_len += j;
                edge = -1;
                skip += j;
        }
        r = RESERVE(l->sets, l->sets_allocated, 2 * words);
        if (r < 0)
                return r;
        memcpy(l->sets, set, words * sizeof(uint64_t));

        l->visits = *visits;
        r = glob_scan_general(l, b, n, off, edge, skip, key, pos);
        *visits = l->visits;
        return r;
}

/* The one-word instance (keys under 64 bytes, the usual case). */
static inline uint64_t one_step(const HwdbGlobKey *k, uint64_t s, uint8_t c) {
        return hwdb_glob_step1(k, s, c);
}
static inline uint64_t one_eq(const HwdbGlobKey *k, uint8_t c) {
        return hwdb_glob_eq1(k, c);
}
static inline uint64_t one_valid(const HwdbGlobKey *k) {
        return k->valid[0];
}
/* The key byte at the one position in s (0 at the key's end). */
static inline int one_byte_at(const HwdbGlobKey *k, uint64_t s) {
        return k->text[__builtin_ctzll(s)];
}
static inline void one_words(uint64_t s, uint64_t *w) {
        w[0] = s;
}

#define FAST_SET uint64_t
#define FAST(name) one_##name
#define FAST_FRAME_SET set
#include "hwdb-lookup-fast.h"
#undef FAST_SET
#undef FAST
#undef FAST_FRAME_SET

#if HWDB_HAVE_INT128
/* The two-word instance: keys of 64 to 127 bytes (long evdev, dmi and
 * usb modaliases) in one 128-bit integer, rather than the general
 * multi-word sets (glob_scan_wide()), which handle every length but pay
 * for it in loops over words on every step. */
typedef unsigned __int128 HwdbSet2;

static inline HwdbSet2 two_valid(const HwdbGlobKey *k) {
        return (HwdbSet2) k->valid[1] << 64 | k->valid[0];
}
/* The positions j+1 where key[j] == c. The key is in long_text, zero
 * padded to 128 bytes: valid drops the padding's matches of c == 0. */
static inline HwdbSet2 two_eq(const HwdbGlobKey *k, uint8_t c) {
        HwdbSet2 e = (HwdbSet2) hwdb_glob_eq64(k->long_text + 64, c) << 64 | hwdb_glob_eq64(k->long_text, c);

        return (e << 1) & two_valid(k);
}
static inline int two_ctz(HwdbSet2 s) {
        uint64_t lo = (uint64_t) s;

        return lo != 0 ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t) (s >> 64));
}
static inline int two_byte_at(const HwdbGlobKey *k, HwdbSet2 s) {
        return k->long_text[two_ctz(s)];
}
/* hwdb_glob_step1() for two words. */
static inline HwdbSet2 two_step(const HwdbGlobKey *k, HwdbSet2 s, uint8_t c) {
        if (c == '*')
                return ((HwdbSet2) 0 - (s & ((HwdbSet2) 0 - s))) & two_valid(k);
        if (c == '?')
                return (s << 1) & two_valid(k);
        if ((s & (s - 1)) == 0)
                /* s has at most bit len <= 127: long_text[127] at most. */
                return s != 0 && k->long_text[two_ctz(s)] == c ? (s << 1) & two_valid(k) : 0;
        return (s << 1) & two_eq(k, c);
}
static inline void two_words(HwdbSet2 s, uint64_t *w) {
        w[0] = (uint64_t) s;
        w[1] = (uint64_t) (s >> 64);
}

#define FAST_SET HwdbSet2
#define FAST(name) two_##name
#define FAST_FRAME_SET set2
#include "hwdb-lookup-fast.h"
#undef FAST_SET
#undef FAST
#undef FAST_FRAME_SET
#endif

/* Steps the multi-word set src over c (neither '[' nor '\\') into dst
 * (which may be src). Returns whether dst is non-empty. A set of one
 * position steps over a literal byte by comparing that key byte. */
static bool wide_step(HwdbGlobKey *k, uint64_t *dst, const uint64_t *src, uint8_t c) {
        const size_t words = k->words;

        if (c != '*' && c != '?') {
                size_t first = 0, i;
                bool single;

                while (first < words && src[first] == 0)
                        first++;
                if (first == words) {
                        for (i = 0; i < words; i++)
                                dst[i] = 0;
                        return false;
                }
                single = (src[first] & (src[first] - 1)) == 0;
                for (i = first + 1; single && i < words; i++)
                        single = src[i] == 0;
                if (single) {
                        size_t p = first * 64 + (size_t) __builtin_ctzll(src[first]);

                        for (i = 0; i < words; i++)
                                dst[i] = 0;
                        if (p >= k->len || k->long_text[p] != c)
                                return false;
                        dst[(p + 1) / 64] = UINT64_C(1) << ((p + 1) % 64);
                        return true;
                }
        }
        (void) hwdb_glob_step(k, dst, src, c);
        return !hwdb_glob_set_empty(k, dst);
}

/* The one position in the multi-word set s, or SIZE_MAX when it holds
 * more than one (or none). */
static size_t wide_single_pos(const HwdbGlobKey *k, const uint64_t *s) {
        size_t first = 0;

        while (first < k->words && s[first] == 0)
                first++;
        if (first == k->words || (s[first] & (s[first] - 1)) != 0)
                return SIZE_MAX;
        for (size_t i = first + 1; i < k->words; i++)
                if (s[i] != 0)
                        return SIZE_MAX;
        return first * 64 + (size_t) __builtin_ctzll(s[first]);
}

/* The key byte at the one position in s, 0 when that is the key's end, or
 * -1 when s holds more than one position (or none). */
static int wide_single_byte(const HwdbGlobKey *k, const uint64_t *s) {
        size_t p = wide_single_pos(k, s);

        if (p == SIZE_MAX)
                return -1;
        return p < k->len ? k->long_text[p] : 0;
}

/* wide_step() over the pattern bytes p (NUL-terminated) until the set is
 * empty. Returns where it met a byte the sets do not model with a live set
 * (s is then the set before that byte), or NO_STOP; *live tells whether s
 * is non-empty. */
static size_t wide_steps(HwdbGlobKey *k, uint64_t *s, const char *p, bool *live) {
        size_t j = 0, q;

        *live = !hwdb_glob_set_empty(k, s);
        while (*live && p[j] != '\0') {
                uint8_t c = (uint8_t) p[j];

                if (c == '[' || c == '\\') {
                        size_t first, n, len = 0;
                        bool negated;

                        if (c == '[')
                                len = simple_bracket(p + j + 1, &negated, &first, &n);
                        if (len == 0)
                                return j;
                        (void) hwdb_glob_step(k, s, s, '?');
                        hwdb_glob_restrict(k, s, p + j + 1 + first, n, negated);
                        *live = !hwdb_glob_set_empty(k, s);
                        j += len + 1;
                        continue;
                }
                if (c != '*' && c != '?' && (q = wide_single_pos(k, s)) != SIZE_MAX) {
                        /* One position: a run of literal bytes is
                         * compared with the key. */
                        for (size_t i = 0; i < k->words; i++)
                                s[i] = 0;
                        for (;;) {
                                if (q >= k->len || k->long_text[q] != c) {
                                        *live = false;
                                        return NO_STOP;
                                }
                                q++;
                                c = (uint8_t) p[++j];
                                if (c == '\0' || c == '*' || c == '?' || c == '[' || c == '\\')
                                        break;
                        }
                        s[q / 64] = UINT64_C(1) << (q % 64);
                        continue;
                }
                *live = wide_step(k, s, s, c);
                j++;
        }
        return NO_STOP;
}

/* dst = src stepped over edge (-1: none) and then the text p. Returns
 * NO_STOP, EDGE_STOP, or where in p it met a byte the sets do not model
 * (dst the set before it); *live tells whether dst is non-empty. */
static size_t enter_wide(HwdbGlobKey *k, uint64_t *dst, const uint64_t *src, int edge, const char *p,
                         bool *live) {
        size_t from = 0, stop;

        if (edge == '[') {
                size_t first, n;
                bool negated;

                from = simple_bracket(p, &negated, &first, &n);
                if (from == 0)
                        return EDGE_STOP;
                (void) hwdb_glob_step(k, dst, src, '?');
                hwdb_glob_restrict(k, dst, p + first, n, negated);
        } else if (edge == '\\')
                return EDGE_STOP;
        else if (edge >= 0)
                (void) wide_step(k, dst, src, (uint8_t) edge);
        else if (dst != src)
                memcpy(dst, src, k->words * sizeof(uint64_t));
        stop = wide_steps(k, dst, p + from, live);
        return stop == NO_STOP ? NO_STOP : from + stop;
}

/* glob_scan_fast() for keys of 64 bytes and more: the sets span several
 * words and live in l->wide_sets, one per frame and one for the child
 * being tried. Same answers, order and checks. */
static int glob_scan_wide(HwdbLookup *l, const HwdbBin *b, const HwdbNode *n, uint64_t off, int edge,
                          size_t skip, const char *key, size_t pos) {
        HwdbGlobKey *k = l->glob;
        const size_t words = k->words;
        uint64_t visits = l->visits;
        size_t n_stack = 0, stop;
        bool live = true;
        int r;

        if (++visits > l->max_visits)
                return -ELOOP;
        r = RESERVE(l->wide_sets, l->wide_sets_allocated, 2 * words);
        if (r < 0)
                return r;
        /* The start set in the second slot: the root frame's set is
         * stepped from it into the first. */
        hwdb_glob_set_single(k, l->wide_sets + words, pos);
        stop = enter_wide(k, l->wide_sets, l->wide_sets + words, edge, n->prefix + skip, &live);
        if (stop != NO_STOP) {
                r = fast_handover(l, b, 0, n, off, edge, skip, stop,
                                  stop == EDGE_STOP ? l->wide_sets + words : l->wide_sets, key, pos, &visits);
                goto done;
        }
        r = 0;
        if (!live)
                goto done;

        r = RESERVE(l->fast, l->fast_allocated, 1);
        if (r < 0)
                return r;
        l->fast[n_stack++] = (HwdbFastFrame) { .node = *n, .off = off, .text = n->prefix + skip, .edge = edge };

        while (n_stack > 0) {
                HwdbFastFrame *f = &l->fast[n_stack - 1];
                uint64_t *fs = l->wide_sets + (n_stack - 1) * words, *cs = fs + words;
                const unsigned nc = f->node.n_children;
                const uint8_t *e = b->data + f->node.children_off + (uint64_t) f->next_child * b->child_size;
                const int kc = f->next_child < nc ? wide_single_byte(k, fs) : -1;
                unsigned i = f->next_child;
                uint64_t child = 0;
                uint8_t c = 0;

                for (; i < nc; i++, e += b->child_size) {
                        c = e[HWDB_CHILD_C];
                        child = hwdb_get64(e + HWDB_CHILD_OFF);
                        if (child >= f->off)
                                return -ELOOP;
                        if (c != kc && kc >= 0 && !fast_special[c])
                                continue;
                        /* A bracket is stepped once the child is read. */
                        if (c == '[' || c == '\\')
                                break;
                        if (wide_step(k, cs, fs, c))
                                break;
                }
                if (i < nc) {
                        HwdbNode cn;

                        f->next_child = i + 1;
                        if (++visits > l->max_visits || n_stack >= HWDB_MAX_DEPTH)
                                return -ELOOP;
                        r = hwdb_bin_node(b, child, &cn);
                        if (r < 0)
                                return r;
                        if (c == '[' || c == '\\')
                                stop = enter_wide(k, cs, fs, c, cn.prefix, &live);
                        else
                                stop = wide_steps(k, cs, cn.prefix, &live);
                        if (stop != NO_STOP) {
                                r = fast_handover(l, b, n_stack, &cn, child, c, 0, stop, stop == EDGE_STOP ? fs : cs,
                                                  key, pos, &visits);
                                if (r < 0)
                                        return r;
                                continue;
                        }
                        if (!live)
                                continue;
                        if (cn.n_children == 0) {
                                if (cn.n_values > 0 && hwdb_glob_accepts(k, cs)) {
                                        r = add_values(l, b, &cn);
                                        if (r < 0)
                                                return r;
                                }
                                continue;
                        }
                        r = RESERVE(l->fast, l->fast_allocated, n_stack + 1);
                        if (r < 0)
                                return r;
                        /* Room for the new frame's set (already in place)
                         * and for its children's. */
                        r = RESERVE(l->wide_sets, l->wide_sets_allocated, (n_stack + 2) * words);
                        if (r < 0)
                                return r;
                        l->fast[n_stack++] = (HwdbFastFrame) { .node = cn, .off = child, .text = cn.prefix, .edge = c };
                        continue;
                }

                if (f->node.n_values > 0 && hwdb_glob_accepts(k, fs)) {
                        r = add_values(l, b, &f->node);
                        if (r < 0)
                                return r;
                }
                n_stack--;
        }
        r = 0;
done:
        l->visits = visits;
        return r;
}

/* glob_scan() below a glob start with children. Not inlined: with the
 * lean scans in it, entering it saves and restores many registers, which
 * the far more common leaves should not pay for. */
static __attribute__((noinline)) int glob_scan_tree(HwdbLookup *l, const HwdbBin *b, const HwdbNode *n,
                                                    uint64_t off, int edge, size_t skip, const char *key,
                                                    size_t pos) {
        int r;

        if (!l->glob_ready) {
                r = hwdb_glob_key_init(l->glob, key, l->key_len);
                if (r < 0)
                        return r;
                l->glob_ready = true;
        }
        if (l->glob->usable) {
                if (l->glob->words == 1)
                        return one_glob_scan_fast(l, b, n, off, edge, skip, key, pos);
#if HWDB_HAVE_INT128
                if (l->glob->words == 2 && !l->no_wide_int)
                        return two_glob_scan_fast(l, b, n, off, edge, skip, key, pos);
#endif
                return glob_scan_wide(l, b, n, off, edge, skip, key, pos);
        }
        l->pattern_len = 0;
        return glob_scan_general(l, b, n, off, edge, skip, key, pos);
}

/* Every node below one glob start that matches the rest of the key, from
 * key position pos on, adds its values: children in edge order first, then
 * the node itself. */
static inline int glob_scan(HwdbLookup *l, const HwdbBin *b, const HwdbNode *n, uint64_t off, int edge,
                            size_t skip, const char *key, size_t pos) {
        if (n->n_children == 0 && !l->no_prune) {
                const char *p = n->prefix + skip;

                /* A leaf whose whole pattern is one '*' (as edge, or as
                 * its text): matches whatever rest of the key. These are
                 * the most common glob starts by far, a vendor's or
                 * model's "...*", met by most keys. */
                if (edge == '*' ? p[0] == '\0' : edge < 0 && p[0] == '*' && p[1] == '\0') {
                        if (++l->visits > l->max_visits)
                                return -ELOOP;
                        return add_values(l, b, n);
                }
                return glob_leaf(l, b, n, edge, skip, key, pos);
        }
        return glob_scan_tree(l, b, n, off, edge, skip, key, pos);
}

/* The edge bytes that start a glob subtree. */
static const bool glob_edge[256] = { ['*'] = true, ['?'] = true, ['['] = true };

static bool is_glob_byte(char c) {
        return c == '*' || c == '?' || c == '[';
}

/* A byte every pattern below the glob child n (entered by edge) has to
 * match literally, or -1: the last byte of n's text before any '[' or
 * '\\' that is not '*' or '?' (fnmatch reads those bytes literally, and
 * every pattern below n has n's text in it). A subtree with children
 * only: a leaf is matched at once anyway. */
static int16_t glob_need(const HwdbNode *n, uint8_t edge) {
        int16_t need = -1;

        if (n->n_children == 0 || edge == '[')
                return -1;
        for (const char *p = n->prefix; *p != '\0' && *p != '[' && *p != '\\'; p++)
                if (*p != '*' && *p != '?')
                        need = (uint8_t) *p;
        return need;
}

/* Counts a check of the needed byte of glob child g of step that found
 * the byte (a miss: the subtree was scanned all the same). After the
 * first keys the check is kept only as long as it passes over at least
 * one subtree in eight: keys from real devices nearly always have the
 * byte (a modalias has its "bc" or "dc"), and then the check only costs. */
static void need_missed(HwdbPathStep *step, unsigned g) {
        uint32_t checks = step->need_checks[g], misses = ++step->need_misses[g];

        if (checks >= 32 && (checks - misses) * 8 <= checks)
                step->glob_need[g] = -1;
}

/* The glob scans of one level of the walk. A glob child is decoded the
 * first time; the keys after it that share the level take it from there.
 *
 * A glob subtree whose needed byte (glob_need()) is not in the rest of
 * the key matches nothing: it is passed over with one memrchr, counted
 * as the one visit its scan would have made (the set matcher's scans,
 * for keys it takes, die in the subtree's own text then, before reading
 * a child). Half the subtree scans of keys from the real patterns end so
 * ("pci:v*d*sv*sd*bc..." and "usb:v*p*d*dc..." for keys without a "bc"
 * or "dc"), each having set up the key's matcher and stepped through the
 * subtree's text. */
static int glob_scans(HwdbLookup *l, const HwdbBin *b, HwdbPathStep *step, const char *key) {
        for (unsigned g = 0; g < step->n_globs; g++) {
                int r;

                if (g >= step->n_decoded) {
                        r = hwdb_bin_node(b, step->globs[g], &step->glob_nodes[g]);
                        if (r < 0)
                                return r;
                        step->glob_need[g] = glob_need(&step->glob_nodes[g], step->glob_c[g]);
                        step->need_checks[g] = step->need_misses[g] = 0;
                        step->n_decoded = (uint8_t) (g + 1);
                }
                if (step->glob_need[g] > 0 && !l->no_prune && l->key_len <= HWDB_GLOB_MAX_KEY) {
                        step->need_checks[g]++;
                        if (!memrchr(key + step->end, step->glob_need[g], l->key_len - step->end)) {
                                if (++l->visits > l->max_visits)
                                        return -ELOOP;
                                continue;
                        }
                        need_missed(step, g);
                }
                r = glob_scan(l, b, &step->glob_nodes[g], step->globs[g], step->glob_c[g], 0, key, step->end);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* The literal walk from node off at key position i, below the first
 * n_path levels of l->path. Every level it leaves through a child joins
 * l->path. */
static int walk(HwdbLookup *l, const HwdbBin *b, uint64_t off, size_t i, const char *key) {
        int r;

        for (;;) {
                HwdbPathStep *step;
                HwdbNode n;
                size_t j;

                r = hwdb_bin_node(b, off, &n);
                if (r < 0)
                        return r;
                l->walk_last = off;

                /* The node's own bytes must equal the key literally, up to
                 * the first glob byte; from there fnmatch takes over. */
                for (j = 0; n.prefix[j] != '\0'; j++) {
                        if (is_glob_byte(n.prefix[j]))
                                return glob_scan(l, b, &n, off, -1, j, key, i + j);
                        if (n.prefix[j] != key[i + j])
                                return 0;
                }
                i += j;

                r = RESERVE(l->path, l->path_allocated, l->n_path + 1);
                if (r < 0)
                        return r;
                step = &l->path[l->n_path];
                /* Field by field: the decoded glob nodes are only
                 * written when used. */
                step->off = off;
                step->next = 0;
                step->end = i;
                step->children_off = n.children_off;
                step->n_children = n.n_children;
                step->n_globs = step->n_decoded = 0;
                step->ordered = false;

                /* One pass over the sorted child array finds the glob
                 * children ('*' < '?' < '[') and the key byte's child. */
                const uint8_t kc = (uint8_t) key[i], last = MAX(kc, (uint8_t) '[');
                const uint8_t *e = b->data + n.children_off;
                bool found = false;

                for (unsigned c = 0; c < n.n_children; c++, e += b->child_size) {
                        uint8_t ec = e[HWDB_CHILD_C];
                        uint64_t child = hwdb_get64(e + HWDB_CHILD_OFF);

                        /* Writers store children before their parent: an
                         * edge that does not lead down is a cycle. */
                        if (child >= off)
                                return -ELOOP;
                        if (glob_edge[ec] || ec == kc) {
                                if (glob_edge[ec] && step->n_globs < 3) {
                                        step->glob_c[step->n_globs] = ec;
                                        step->globs[step->n_globs++] = child;
                                }
                                if (ec == kc && kc != '\0' && !found) {
                                        step->next = child;
                                        step->next_i = c;
                                        found = true;
                                }
                        }
                        if (ec > last)
                                break;
                }
                if (step->n_globs > 0) {
                        /* The child is read right after the scans: have
                         * it on its way while they run. */
                        if (found)
                                __builtin_prefetch(b->data + step->next);
                        r = glob_scans(l, b, step, key);
                        if (r < 0)
                                return r;
                }

                if (kc == '\0')
                        return add_values(l, b, &n);
                if (!found)
                        return 0;
                l->n_path++;
                off = step->next;
                i++;
        }
}

/* How far ahead of the last node a key's walk read hwdb_lookup_next()
 * has the file fetched into the cache. Writers store a node's children
 * before it, depth first, in edge order: the nodes sorted keys walk lie in
 * file order, and those a key reads that the key before did not lie
 * mostly just after where the key before ended. Keys from the real
 * patterns of systemd's hwdb, 64-byte lines of nodes and child arrays
 * (from a trace): 88% of them lie within 2 KiB after the node the key
 * before ended at, 95% within 4 KiB, 98% within 8 KiB. As the window moves
 * on, 8 KiB cost 21 prefetches per key (4 KiB: 18), and ran 3% faster than
 * 4 KiB and as fast as 16 KiB (CPU time, 21 alternating runs). */
#define AHEAD_WINDOW 8192u

/* Asks for the file from node off to AHEAD_WINDOW after it, without the
 * lines asked for already: a window that moves forward fetches only what
 * it gained. After a jump back (a new run of sorted keys) it starts over;
 * a small step back asks for nothing. Prefetches do not fault, but stay
 * inside the file all the same. */
static void fetch_ahead(HwdbLookup *l, const HwdbBin *b, uint64_t off) {
        uint64_t from = off & ~UINT64_C(63), to = MIN(off + AHEAD_WINDOW, (uint64_t) b->size);

        if (l->ahead > to) {
                if (l->ahead - to <= 2 * AHEAD_WINDOW)
                        return;
        } else if (l->ahead > from)
                from = l->ahead;
        /* Four lines a round: the loop's own instructions cost more than
         * the prefetches. */
        for (; from + 256 <= to; from += 256) {
                __builtin_prefetch(b->data + from);
                __builtin_prefetch(b->data + from + 64);
                __builtin_prefetch(b->data + from + 128);
                __builtin_prefetch(b->data + from + 192);
        }
        for (; from < to; from += 64)
                __builtin_prefetch(b->data + from);
        l->ahead = to;
}

/* How a key goes on from the last key's path (lookup()). */
enum {
        RESUME_NONE,            /* by walking from the node where it leaves */
        RESUME_BELOW,           /* below the child resume_child() found */
        RESUME_NO_CHILD,        /* nowhere: the node has no child for it */
};

/* A key that shares the levels above step with the key before, and the
 * node of step up to the byte that chose its child, takes another child
 * there: the node, its prefix and its glob children stay as they are, and
 * only the child for kc is looked for, from the child the last key took
 * on. That reads what a fresh walk of the node would, less what the last
 * key read already: as long as the array is sorted, a later byte's child
 * lies further on, and the entries before it up to '[' (the glob
 * children) were read and checked. Anything else (keys out of order, an
 * array out of order, an edge that does not lead down) returns
 * RESUME_NONE, and the walk reads the node afresh and meets it in its
 * turn. */
static int resume_child(const HwdbBin *b, HwdbPathStep *step, uint8_t kc) {
        const uint8_t *e = b->data + step->children_off;
        int prev = -1, r = RESUME_NO_CHILD;
        uint64_t next = 0;
        unsigned next_i = 0;

        /* The entries the last key read, in order? Checked once per level:
         * a resume checks the entries it reads on, so the next key that
         * resumes here need not check them again. */
        if (step->ordered) {
                e += (uint64_t) step->next_i * b->child_size;
                prev = e[HWDB_CHILD_C];
                e += b->child_size;
        } else {
                for (unsigned c = 0; c <= step->next_i; c++, e += b->child_size) {
                        if (e[HWDB_CHILD_C] <= prev)
                                return RESUME_NONE;
                        prev = e[HWDB_CHILD_C];
                }
                step->ordered = true;
        }
        if (prev >= kc)
                return RESUME_NONE;
        for (unsigned c = step->next_i + 1; c < step->n_children; c++, e += b->child_size) {
                uint8_t ec = e[HWDB_CHILD_C];
                uint64_t child = hwdb_get64(e + HWDB_CHILD_OFF);

                if (child >= step->off || ec <= prev)
                        return RESUME_NONE;
                prev = ec;
                if (ec == kc) {
                        next = child;
                        next_i = c;
                        r = RESUME_BELOW;
                }
                if (ec > kc)
                        break;
        }
        if (r == RESUME_BELOW) {
                /* The walk reads it after the glob scans. */
                __builtin_prefetch(b->data + next);
                step->next = next;
                step->next_i = next_i;
        }
        return r;
}

static int lookup(HwdbLookup *l, const HwdbBin *b, const char *key, size_t key_len, bool reuse) {
        uint64_t off = b->root_off;
        size_t i = 0, d = 0, same = 0;
        int resume = RESUME_NONE;
        int r;

        l->n_props = 0;
        if (!key || key[0] == '\0')
                return 0;
        /* Unusable until this lookup completes. */
        reuse = reuse && l->path_db == b;
        l->path_db = NULL;

        if (!l->glob) {
                l->glob = new0(HwdbGlobKey, 1);
                if (!l->glob)
                        return -ENOMEM;
        }
        /* The matcher is set up by the first glob scan: a key whose walk
         * meets no glob does without. */
        l->key_len = key_len;
        l->glob_ready = l->no_prune;
        if (l->no_prune)
                l->glob->usable = false;

        l->visits = 0;
        /* Without a division per key (tens of cycles). */
        if (__builtin_mul_overflow(b->max_nodes, (uint64_t) key_len + 2, &l->max_visits))
                l->max_visits = UINT64_MAX;

        /* A level is the same for this key when the key is the same up to
         * and including the byte that chose the child: only its glob scans
         * are done again. */
        if (reuse) {
                size_t max = MIN(key_len, l->path_key_len), shared = 0;

                /* Eight bytes at a time: sorted neighbours share tens. */
                while (same + 8 <= max) {
                        uint64_t x, y;

                        memcpy(&x, l->path_key + same, 8);
                        memcpy(&y, key + same, 8);
                        if (x != y)
                                break;
                        same += 8;
                }
                if (same + 8 <= max) {
                        uint64_t x, y;

                        /* The first differing byte of the differing 8. */
                        memcpy(&x, l->path_key + same, 8);
                        memcpy(&y, key + same, 8);
                        same += (size_t) __builtin_ctzll(le64toh(x ^ y)) / 8;
                } else
                        while (same < max && l->path_key[same] == key[same])
                                same++;
                /* The levels the key passes in full, their scans in
                 * order, in the same pass that finds them. */
                for (; shared < l->n_path && l->path[shared].end < same; shared++) {
                        if (l->path[shared].n_globs == 0)
                                continue;
                        r = glob_scans(l, b, &l->path[shared], key);
                        if (r < 0)
                                return r;
                }
                if (shared < l->n_path && l->path[shared].end == same && same < key_len) {
                        resume = resume_child(b, &l->path[shared], (uint8_t) key[same]);
                        /* The level's glob scans run after the others. */
                        if (resume != RESUME_NONE) {
                                if (l->path[shared].n_globs > 0) {
                                        r = glob_scans(l, b, &l->path[shared], key);
                                        if (r < 0)
                                                return r;
                                }
                                shared++;
                        }
                }
                d = shared;
                if (d > 0) {
                        off = l->path[d - 1].next;
                        i = l->path[d - 1].end + 1;
                }
        }
        /* The level resumed at counts only when the walk goes on below it. */
        l->n_path = resume == RESUME_NO_CHILD ? d - 1 : d;

        if (resume != RESUME_NO_CHILD) {
                l->walk_last = off;
                r = walk(l, b, off, i, key);
                if (r < 0)
                        return r;
                if (reuse)
                        fetch_ahead(l, b, l->walk_last);
        }

        r = RESERVE(l->path_key, l->path_key_allocated, key_len + 1);
        if (r < 0)
                return r;
        memcpy(l->path_key + same, key + same, key_len - same + 1);
        l->path_key_len = key_len;
        l->path_db = b;
        return (int) l->n_props;
}

int hwdb_lookup(HwdbLookup *l, const HwdbBin *b, const char *key) {
        return lookup(l, b, key, key ? strlen(key) : 0, false);
}

int hwdb_lookup_next(HwdbLookup *l, const HwdbBin *b, const char *key) {
        return lookup(l, b, key, key ? strlen(key) : 0, true);
}

int hwdb_lookup_next_len(HwdbLookup *l, const HwdbBin *b, const char *key, size_t len) {
        return lookup(l, b, key, len, true);
}
