/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "hwdb-dfa.h"
#include "hwdb-format.h"

/* NFA elements: positions 0..n_pos-1, one per pattern byte (a node's edge
 * byte, then its prefix bytes), and end markers n_pos + k, "the pattern of
 * node k is read up to its end". Node 0 is the glob start; nodes are
 * numbered in depth-first pre-order, children in the order the file keeps
 * them, so a node's positions are contiguous. */

#define UNKNOWN UINT32_MAX      /* a transition not made yet */
#define DEAD 0u                 /* the empty set: nothing can match any more */
#define START 1u
/* No glob subtree of a real hwdb.bin comes near this many pattern bytes. */
#define MAX_POSITIONS (UINT32_C(1) << 22)

struct HwdbDfaSlot {
        uint64_t off;
        uint64_t skip;
        int edge;               /* EMPTY_SLOT: the slot is free */
        bool unusable;          /* tried, cannot be compiled */
        uint32_t seen;
        HwdbDfa *dfa;
};

#define EMPTY_SLOT (-2)

struct HwdbDfa {
        /* The NFA. */
        uint32_t n_pos, n_nodes;
        uint8_t *pos_char;
        uint32_t *succ_off;     /* successors of position p: succ[succ_off[p], succ_off[p + 1]) */
        uint32_t *succ;
        uint32_t *rank;         /* per node: its place in the scan's order (post-order) */
        HwdbDfaMatch *values;   /* per node */
        uint8_t cls[256];       /* byte -> class; 0: no literal of the subtree */
        uint32_t n_cls;

        /* Scratch of the compile, freed when it ends. */
        uint64_t *node_off;
        uint32_t *parent;
        uint32_t *first;        /* per node: its first position */
        size_t nodes_allocated, pos_allocated;

        /* The DFA. State s is the set elems[set_off[s], set_off[s + 1]),
         * unordered; its row of transitions is trans[s * n_cls, (s + 1) * n_cls). */
        uint32_t n_states;
        uint32_t *trans;
        uint32_t *set_off;
        uint32_t *accept_off;   /* per state: UNKNOWN until its end is asked for */
        uint32_t *accept_len;
        size_t states_allocated, trans_allocated, set_off_allocated, accept_off_allocated,
                accept_len_allocated;
        uint32_t *elems;
        size_t n_elems, elems_allocated;
        HwdbDfaMatch *accepts;
        size_t n_accepts, accepts_allocated;
        uint32_t *table;        /* hash of the sets: state + 1, 0 free */
        size_t table_size;

        size_t nfa_memory, dfa_memory;
};

static size_t budget(const HwdbDfaCache *c) {
        size_t max = c->memory_max > 0 ? c->memory_max : HWDB_DFA_MEMORY_MAX;

        return MAX(max, c->memory);
}

static void dfa_free(HwdbDfa *d) {
        if (!d)
                return;
        free(d->pos_char);
        free(d->succ_off);
        free(d->succ);
        free(d->rank);
        free(d->values);
        free(d->node_off);
        free(d->parent);
        free(d->first);
        free(d->trans);
        free(d->set_off);
        free(d->accept_off);
        free(d->accept_len);
        free(d->elems);
        free(d->accepts);
        free(d->table);
        free(d);
}

static void cache_forget(HwdbDfaCache *c) {
        for (size_t i = 0; i < c->slots_size; i++)
                if (c->slots[i].edge != EMPTY_SLOT)
                        dfa_free(c->slots[i].dfa);
        free(c->slots);
        c->slots = NULL;
        c->n_slots = c->slots_size = 0;
        c->memory = 0;
        dfa_free(c->building);
        c->building = NULL;
}

void hwdb_dfa_cache_done(HwdbDfaCache *c) {
        cache_forget(c);
        free(c->mark);
        free(c->work);
        free(c->stack);
        *c = (HwdbDfaCache) {};
}

static uint64_t slot_hash(uint64_t off, int edge, uint64_t skip) {
        uint64_t h = (off ^ (skip << 40) ^ ((uint64_t) (edge + 1) << 56)) * UINT64_C(0x9e3779b97f4a7c15);

        return h ^ (h >> 29);
}

/* The slot for the glob start, made if there is none. */
static int slot_find(HwdbDfaCache *c, uint64_t off, int edge, uint64_t skip, HwdbDfaSlot **ret) {
        size_t mask, h;

        if (c->n_slots * 2 + 2 > c->slots_size) {
                size_t size = c->slots_size ? c->slots_size * 2 : 64;
                HwdbDfaSlot *n = reallocarray_safe(NULL, size, sizeof(HwdbDfaSlot));

                if (!n)
                        return -ENOMEM;
                for (size_t i = 0; i < size; i++)
                        n[i].edge = EMPTY_SLOT;
                for (size_t i = 0; i < c->slots_size; i++) {
                        const HwdbDfaSlot *s = &c->slots[i];

                        if (s->edge == EMPTY_SLOT)
                                continue;
                        for (h = slot_hash(s->off, s->edge, s->skip) & (size - 1); n[h].edge != EMPTY_SLOT;
                             h = (h + 1) & (size - 1))
                                ;
                        n[h] = *s;
                }
                free(c->slots);
                c->slots = n;
                c->slots_size = size;
        }

        mask = c->slots_size - 1;
        for (h = slot_hash(off, edge, skip) & mask; c->slots[h].edge != EMPTY_SLOT; h = (h + 1) & mask) {
                HwdbDfaSlot *s = &c->slots[h];

                if (s->off == off && s->edge == edge && s->skip == skip) {
                        *ret = s;
                        return 0;
                }
        }
        c->slots[h] = (HwdbDfaSlot) { .off = off, .skip = skip, .edge = edge };
        c->n_slots++;
        *ret = &c->slots[h];
        return 0;
}

/* Room for n elements in the cache's per-element stamps. */
static int mark_reserve(HwdbDfaCache *c, size_t n) {
        size_t old = c->mark_allocated;
        int r;

        if (c->mark && n <= old)
                return 0;
        r = GREEDY_REALLOC(c->mark, c->mark_allocated, n);
        if (r < 0)
                return r;
        memset(c->mark + old, 0, (c->mark_allocated - old) * sizeof(uint32_t));
        return 0;
}

static void next_stamp(HwdbDfaCache *c) {
        if (++c->stamp == 0) {
                memset(c->mark, 0, c->mark_allocated * sizeof(uint32_t));
                c->stamp = 1;
        }
}

static int resize(void **array, size_t n, size_t size) {
        void *p = reallocarray_safe(*array, n, size);

        if (!p)
                return -ENOMEM;
        *array = p;
        return 0;
}

/* Adds a node to the NFA under construction: its positions are its edge
 * byte (edge >= 0) and its prefix. Returns 1 when added, 0 when the subtree
 * cannot be compiled. Reads the database. */
static int add_node(HwdbDfa *d, const HwdbNode *n, uint64_t off, uint32_t parent, int edge) {
        size_t len = strlen(n->prefix) + (edge >= 0);
        uint32_t k = d->n_nodes;
        int r;

        if (d->n_nodes >= HWDB_DFA_MAX_NODES || len == 0 || len > MAX_POSITIONS - d->n_pos)
                return 0;
        if (k + 2 > d->nodes_allocated) {
                /* The per-node arrays grow together; first[] has one more. */
                size_t size = MAX(d->nodes_allocated * 2, (size_t) 64);

                if (resize((void **) &d->node_off, size, sizeof(uint64_t)) < 0 ||
                    resize((void **) &d->parent, size, sizeof(uint32_t)) < 0 ||
                    resize((void **) &d->first, size, sizeof(uint32_t)) < 0 ||
                    resize((void **) &d->values, size, sizeof(HwdbDfaMatch)) < 0 ||
                    resize((void **) &d->rank, size, sizeof(uint32_t)) < 0)
                        return -ENOMEM;
                d->nodes_allocated = size;
        }
        r = GREEDY_REALLOC(d->pos_char, d->pos_allocated, d->n_pos + len);
        if (r < 0)
                return r;
        if (edge >= 0)
                d->pos_char[d->n_pos++] = (uint8_t) edge;
        for (const char *p = n->prefix; *p; p++)
                d->pos_char[d->n_pos++] = (uint8_t) *p;
        for (uint32_t p = d->n_pos - (uint32_t) len; p < d->n_pos; p++)
                if (d->pos_char[p] == '[' || d->pos_char[p] == '\\')
                        return 0;

        d->node_off[k] = off;
        d->parent[k] = parent;
        d->first[k] = d->n_pos - (uint32_t) len;
        d->values[k] = (HwdbDfaMatch) { n->values_off, n->n_values };
        d->n_nodes++;
        return 1;
}

static int cmp_u64(const void *a, const void *b) {
        uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

        return x < y ? -1 : x > y;
}

/* Reads the subtree into d's NFA positions, depth first. Returns 1, 0 when
 * it cannot be compiled, or -ENOMEM. The stack holds (node << 32 | next
 * child) pairs. */
static int read_subtree(HwdbDfaCache *c, HwdbDfa *d, const HwdbBin *b, uint64_t off, int edge, size_t skip) {
        HwdbNode root;
        size_t n_stack = 0;
        uint32_t post = 0;
        int r;

        if (hwdb_bin_node(b, off, &root) < 0 || skip > strlen(root.prefix))
                return 0;
        root.prefix += skip;
        r = add_node(d, &root, off, UINT32_MAX, edge);
        if (r <= 0)
                return r;
        r = GREEDY_REALLOC(c->stack, c->stack_allocated, 1);
        if (r < 0)
                return r;
        c->stack[n_stack++] = 0;

        while (n_stack > 0) {
                uint64_t top = c->stack[n_stack - 1];
                uint32_t k = (uint32_t) (top >> 32), i = (uint32_t) top;
                HwdbNode n, cn;
                uint64_t child;
                uint8_t ch;

                /* Decoded again: it was checked when it was added. */
                if (hwdb_bin_node(b, d->node_off[k], &n) < 0)
                        return 0;
                if (i >= n.n_children) {
                        d->rank[k] = post++;
                        n_stack--;
                        continue;
                }
                c->stack[n_stack - 1] = top + 1;
                hwdb_bin_child(b, &n, i, &ch, &child);
                if (child >= d->node_off[k] || hwdb_bin_node(b, child, &cn) < 0)
                        return 0;
                r = add_node(d, &cn, child, k, ch);
                if (r <= 0)
                        return r;
                r = GREEDY_REALLOC(c->stack, c->stack_allocated, n_stack + 1);
                if (r < 0)
                        return r;
                c->stack[n_stack++] = (uint64_t) (d->n_nodes - 1) << 32;
        }

        /* A node reached twice (a shared subtree) would have to add its
         * values twice, in two places of the order: the scan does that. */
        r = GREEDY_REALLOC(c->stack, c->stack_allocated, d->n_nodes);
        if (r < 0)
                return r;
        memcpy(c->stack, d->node_off, d->n_nodes * sizeof(uint64_t));
        qsort(c->stack, d->n_nodes, sizeof(uint64_t), cmp_u64);
        for (uint32_t k = 1; k < d->n_nodes; k++)
                if (c->stack[k] == c->stack[k - 1])
                        return 0;
        return 1;
}

/* The successor lists and byte classes of the NFA read by read_subtree().
 * The last position of node k is followed by its end marker and then the
 * first positions of its children in order, any other position by the
 * next one. */
static int link_positions(HwdbDfa *d) {
        _cleanup_free_ uint32_t *fill = NULL;
        size_t n_succ = (size_t) d->n_pos + 2 * (size_t) d->n_nodes;
        bool literal[256] = {};

        d->first[d->n_nodes] = d->n_pos;
        d->succ_off = new0(uint32_t, (size_t) d->n_pos + 1);
        d->succ = new0(uint32_t, n_succ);
        fill = new0(uint32_t, d->n_nodes);
        if (!d->succ_off || !d->succ || !fill)
                return -ENOMEM;

        /* Successor counts (fill counts children first), then offsets. */
        for (uint32_t k = 1; k < d->n_nodes; k++)
                fill[d->parent[k]]++;
        for (uint32_t k = 0; k < d->n_nodes; k++) {
                uint32_t last = d->first[k + 1] - 1;

                for (uint32_t p = d->first[k]; p < last; p++)
                        d->succ_off[p + 1] = 1;
                d->succ_off[last + 1] = 1 + fill[k];
        }
        for (uint32_t p = 0; p < d->n_pos; p++)
                d->succ_off[p + 1] += d->succ_off[p];

        for (uint32_t k = 0; k < d->n_nodes; k++) {
                uint32_t last = d->first[k + 1] - 1;

                for (uint32_t p = d->first[k]; p < last; p++)
                        d->succ[d->succ_off[p]] = p + 1;
                d->succ[d->succ_off[last]] = d->n_pos + k;
                fill[k] = d->succ_off[last] + 1;
        }
        /* Pre-order numbers siblings in the order the scan takes them. */
        for (uint32_t k = 1; k < d->n_nodes; k++)
                d->succ[fill[d->parent[k]]++] = d->first[k];

        /* Bytes no literal names behave alike: class 0. */
        for (uint32_t p = 0; p < d->n_pos; p++)
                if (d->pos_char[p] != '*' && d->pos_char[p] != '?')
                        literal[d->pos_char[p]] = true;
        d->n_cls = 1;
        memset(d->cls, 0, sizeof(d->cls));
        for (unsigned x = 1; x < 256; x++)
                if (literal[x])
                        d->cls[x] = (uint8_t) d->n_cls++;
        return 0;
}

/* Sets are kept in the order their elements were added, not sorted: the
 * hash is a sum, which ignores the order, and a set is compared with a
 * stored one through the stamps of its elements (the new set's are
 * current). */
static uint32_t elem_hash(uint32_t e) {
        uint32_t h = e * 0x9e3779b1u;

        return h ^ (h >> 16);
}

static uint32_t set_hash(const uint32_t *e, size_t n) {
        uint32_t h = (uint32_t) n;

        for (size_t i = 0; i < n; i++)
                h += elem_hash(e[i]);
        return h;
}

static size_t state_cost(const HwdbDfa *d, size_t set_len) {
        /* A row, the set, its offsets and a share of the hash table. */
        return (size_t) d->n_cls * sizeof(uint32_t) + set_len * sizeof(uint32_t) + 5 * sizeof(uint32_t) +
               2 * sizeof(uint32_t);
}

static int table_rebuild(HwdbDfa *d) {
        size_t size = 64;

        while (size < (size_t) d->n_states * 2 + 2)
                size *= 2;
        if (size > d->table_size) {
                uint32_t *n = reallocarray_safe(d->table, size, sizeof(uint32_t));

                if (!n)
                        return -ENOMEM;
                d->table = n;
                d->table_size = size;
        }
        memset(d->table, 0, d->table_size * sizeof(uint32_t));
        for (uint32_t s = 0; s < d->n_states; s++) {
                const uint32_t *e = d->elems + d->set_off[s];
                size_t mask = d->table_size - 1, h = set_hash(e, d->set_off[s + 1] - d->set_off[s]) & mask;

                while (d->table[h] != 0)
                        h = (h + 1) & mask;
                d->table[h] = s + 1;
        }
        return 0;
}

/* The state for the set in c->work[0, n), whose elements carry the
 * current stamp, made if new.
 * Returns the state, -ENOBUFS when a new one finds no room, -ENOMEM. */
static int64_t state_for(HwdbDfaCache *c, HwdbDfa *d, size_t n) {
        uint32_t *w = c->work;
        size_t mask, h, cost;
        uint32_t s;
        int r;

        mask = d->table_size - 1;
        for (h = set_hash(w, n) & mask; d->table[h] != 0; h = (h + 1) & mask) {
                uint32_t i;

                s = d->table[h] - 1;
                if (d->set_off[s + 1] - d->set_off[s] != n)
                        continue;
                /* Same size and every element in the new set: equal. */
                for (i = d->set_off[s]; i < d->set_off[s + 1] && c->mark[d->elems[i]] == c->stamp; i++)
                        ;
                if (i == d->set_off[s + 1])
                        return s;
        }

        cost = state_cost(d, n);
        if (cost > budget(c) - c->memory || d->n_states >= UINT32_MAX / 2)
                return -ENOBUFS;
        s = d->n_states;
        if (GREEDY_REALLOC(d->trans, d->trans_allocated, ((size_t) s + 1) * d->n_cls) < 0 ||
            GREEDY_REALLOC(d->set_off, d->set_off_allocated, (size_t) s + 2) < 0 ||
            GREEDY_REALLOC(d->accept_off, d->accept_off_allocated, (size_t) s + 1) < 0 ||
            GREEDY_REALLOC(d->accept_len, d->accept_len_allocated, (size_t) s + 1) < 0 ||
            GREEDY_REALLOC(d->elems, d->elems_allocated, d->n_elems + n) < 0)
                return -ENOMEM;
        for (uint32_t x = 0; x < d->n_cls; x++)
                d->trans[(size_t) s * d->n_cls + x] = s == DEAD ? DEAD : UNKNOWN;
        if (s == 0)
                d->set_off[0] = 0;
        memcpy(d->elems + d->n_elems, w, n * sizeof(uint32_t));
        d->n_elems += n;
        d->set_off[s + 1] = (uint32_t) d->n_elems;
        d->accept_off[s] = UNKNOWN;
        d->accept_len[s] = 0;
        d->n_states++;
        d->dfa_memory += cost;
        c->memory += cost;

        if ((size_t) d->n_states * 2 + 2 > d->table_size) {
                r = table_rebuild(d);
                if (r < 0)
                        return r;
        } else {
                for (h = set_hash(w, n) & mask; d->table[h] != 0; h = (h + 1) & mask)
                        ;
                d->table[h] = s + 1;
        }
        return s;
}

/* Adds element e and, for a '*' (which may match nothing), what follows
 * it, to the set in c->work[0, *n). */
static void add_closure(HwdbDfaCache *c, const HwdbDfa *d, uint32_t e, size_t *n) {
        /* The work array has room for every element twice: the set in the
         * front, a stack of elements to add at the back. */
        uint32_t *stack = c->work + (size_t) d->n_pos + d->n_nodes;
        size_t n_stack = 0;

        stack[n_stack++] = e;
        while (n_stack > 0) {
                e = stack[--n_stack];
                if (c->mark[e] == c->stamp)
                        continue;
                c->mark[e] = c->stamp;
                c->work[(*n)++] = e;
                if (e < d->n_pos && d->pos_char[e] == '*')
                        for (uint32_t i = d->succ_off[e + 1]; i > d->succ_off[e]; i--)
                                if (c->mark[d->succ[i - 1]] != c->stamp)
                                        stack[n_stack++] = d->succ[i - 1];
        }
}

/* Makes the transition of state s on byte class x. */
static int64_t transition(HwdbDfaCache *c, HwdbDfa *d, uint32_t s, uint32_t x) {
        size_t n = 0;
        int64_t t;

        next_stamp(c);
        for (uint32_t i = d->set_off[s]; i < d->set_off[s + 1]; i++) {
                uint32_t e = d->elems[i];
                uint8_t ch;

                if (e >= d->n_pos)
                        continue;       /* an end marker reads nothing more */
                ch = d->pos_char[e];
                if (ch == '*')
                        add_closure(c, d, e, &n);
                else if (ch == '?' || (x != 0 && d->cls[ch] == x))
                        for (uint32_t j = d->succ_off[e]; j < d->succ_off[e + 1]; j++)
                                add_closure(c, d, d->succ[j], &n);
        }
        t = state_for(c, d, n);
        if (t >= 0)
                d->trans[(size_t) s * d->n_cls + x] = (uint32_t) t;
        return t;
}

/* Drops every state but the dead and the start state. */
static void flush_states(HwdbDfaCache *c, HwdbDfa *d) {
        size_t keep = state_cost(d, 0) + state_cost(d, d->set_off[START + 1] - d->set_off[START]);

        c->memory -= d->dfa_memory - keep;
        d->dfa_memory = keep;
        d->n_states = START + 1;
        d->n_elems = d->set_off[START + 1];
        d->n_accepts = 0;
        for (uint32_t x = 0; x < d->n_cls; x++)
                d->trans[(size_t) START * d->n_cls + x] = UNKNOWN;
        d->accept_off[START] = UNKNOWN;
        (void) table_rebuild(d);        /* shrinks: cannot fail */
}

static int cmp_rank(const void *a, const void *b) {
        return cmp_u64(a, b);
}

/* The matches of state s: the end markers in it of nodes with values, in
 * the scan's order. */
static int accepts_of(HwdbDfaCache *c, HwdbDfa *d, uint32_t s) {
        uint64_t *order;
        size_t n = 0;
        int r;

        r = GREEDY_REALLOC(c->stack, c->stack_allocated, d->set_off[s + 1] - d->set_off[s]);
        if (r < 0)
                return r;
        order = c->stack;
        for (uint32_t i = d->set_off[s]; i < d->set_off[s + 1]; i++) {
                uint32_t e = d->elems[i];

                if (e >= d->n_pos && d->values[e - d->n_pos].n_values > 0)
                        order[n++] = (uint64_t) d->rank[e - d->n_pos] << 32 | (e - d->n_pos);
        }
        if (n > 1)
                qsort(order, n, sizeof(uint64_t), cmp_rank);
        r = GREEDY_REALLOC(d->accepts, d->accepts_allocated, d->n_accepts + n);
        if (r < 0)
                return r;
        d->accept_off[s] = (uint32_t) d->n_accepts;
        d->accept_len[s] = (uint32_t) n;
        for (size_t i = 0; i < n; i++)
                d->accepts[d->n_accepts++] = d->values[(uint32_t) order[i]];
        d->dfa_memory += n * sizeof(HwdbDfaMatch);
        c->memory += n * sizeof(HwdbDfaMatch);
        return 0;
}

int hwdb_dfa_match(HwdbDfaCache *c, HwdbDfa *d, const char *text, const HwdbDfaMatch **ret) {
        const uint32_t n_cls = d->n_cls;
        uint32_t s = START;
        int r;

        for (const uint8_t *p = (const uint8_t *) text; *p != '\0'; p++) {
                uint32_t x = d->cls[*p], t = d->trans[(size_t) s * n_cls + x];

                if (t == UNKNOWN) {
                        int64_t nt = transition(c, d, s, x);

                        if (nt == -ENOBUFS)
                                flush_states(c, d);
                        if (nt < 0)
                                return (int) nt;
                        t = (uint32_t) nt;
                }
                s = t;
                if (s == DEAD)
                        return 0;
        }
        if (d->accept_off[s] == UNKNOWN) {
                r = accepts_of(c, d, s);
                if (r < 0)
                        return r;
        }
        *ret = d->accepts + d->accept_off[s];
        return (int) d->accept_len[s];
}

/* Compiles the glob start into c->building. Returns 1, 0 when it cannot be
 * compiled, -ENOMEM. */
static int compile(HwdbDfaCache *c, const HwdbBin *b, uint64_t off, int edge, size_t skip) {
        HwdbDfa *d = c->building;
        size_t n = 0, n_elements, nfa_memory;
        int64_t t;
        int r;

        r = read_subtree(c, d, b, off, edge, skip);
        if (r <= 0)
                return r;
        /* From here on only the NFA is read, not the database. */
        r = link_positions(d);
        if (r < 0)
                return r;
        free(d->node_off);
        free(d->parent);
        free(d->first);
        d->node_off = NULL;
        d->parent = d->first = NULL;

        n_elements = (size_t) d->n_pos + d->n_nodes;
        nfa_memory = d->n_pos * (1 + 2 * sizeof(uint32_t)) + 2 * (size_t) d->n_nodes * sizeof(uint32_t) +
                     d->n_nodes * (sizeof(HwdbDfaMatch) + sizeof(uint32_t));
        if (nfa_memory > budget(c) - c->memory)
                return 0;
        r = mark_reserve(c, n_elements);
        if (r < 0)
                return r;
        /* The set, then add_closure()'s stack: at most one push per
         * successor, and one to start. */
        r = GREEDY_REALLOC(c->work, c->work_allocated, 2 * n_elements + d->n_nodes + 1);
        if (r < 0)
                return r;
        r = table_rebuild(d);
        if (r < 0)
                return r;
        d->nfa_memory = nfa_memory;
        c->memory += nfa_memory;

        t = state_for(c, d, 0);                 /* DEAD */
        if (t >= 0) {
                next_stamp(c);
                add_closure(c, d, 0, &n);
                t = state_for(c, d, n);         /* START */
        }
        if (t == -ENOBUFS)
                return 0;
        return t < 0 ? (int) t : 1;
}

int hwdb_dfa_get(HwdbDfaCache *c, const HwdbBin *b, uint64_t off, int edge, size_t skip, HwdbDfa **ret) {
        HwdbDfaSlot *slot;
        int r;

        *ret = NULL;
        if (c->db != b || c->data != b->data || c->size != b->size) {
                cache_forget(c);
                c->db = b;
                c->data = b->data;
                c->size = b->size;
        }
        r = slot_find(c, off, edge, skip, &slot);
        if (r < 0)
                return r;
        if (slot->dfa) {
                *ret = slot->dfa;
                return 0;
        }
        if (slot->unusable || ++slot->seen != HWDB_DFA_COMPILE_AT)
                return 0;
        slot->unusable = true;          /* unless the compile completes */

        /* A compile abandoned by a SIGBUS left its memory here. */
        dfa_free(c->building);
        c->building = new0(HwdbDfa, 1);
        if (!c->building)
                return -ENOMEM;
        r = compile(c, b, off, edge, skip);
        if (r <= 0) {
                c->memory -= c->building->nfa_memory + c->building->dfa_memory;
                dfa_free(c->building);
                c->building = NULL;
                return r;
        }
        slot->dfa = c->building;
        slot->unusable = false;
        c->building = NULL;
        *ret = slot->dfa;
        return 0;
}
