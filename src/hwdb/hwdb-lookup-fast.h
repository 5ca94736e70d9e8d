/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lean glob scan for keys whose position set fits one integer,
 * included by hwdb-lookup.c once per set type: FAST_SET is the type
 * (uint64_t for keys under 64 bytes, unsigned __int128 under 128),
 * FAST(name) names this instance's functions, FAST_FRAME_SET the frame
 * member holding the set, and the instance provides FAST(step)(),
 * FAST(eq)(), FAST(valid)(), FAST(byte_at)() and FAST(words)(). No include
 * guard: it is meant to be included more than once. */

/* The set s advanced over a bracket expression with members m[0, n). */
static FAST_SET FAST(bracket)(const HwdbGlobKey *k, FAST_SET s, const char *m, size_t n, bool negated) {
        FAST_SET members = 0;

        for (size_t i = 0; i < n; i++)
                members |= FAST(eq)(k, (uint8_t) m[i]);
        s = (s << 1) & FAST(valid)(k);
        return s & (negated ? ~members : members);
}

/* Steps the set *s over the pattern bytes p (NUL-terminated) until it is
 * empty. Returns where it met a byte the sets do not model with a live
 * set (*s is then the set before that byte), or NO_STOP. */
static inline size_t FAST(steps)(const HwdbGlobKey *k, FAST_SET *s, const char *p) {
        FAST_SET v = *s;

        for (size_t j = 0; v != 0 && p[j] != '\0'; j++) {
                uint8_t c = (uint8_t) p[j];

                if (c == '[' || c == '\\') {
                        size_t first, n, len = 0;
                        bool negated;

                        if (c == '[')
                                len = simple_bracket(p + j + 1, &negated, &first, &n);
                        if (len == 0) {
                                *s = v;
                                return j;
                        }
                        v = FAST(bracket)(k, v, p + j + 1 + first, n, negated);
                        j += len;
                        continue;
                }
                v = FAST(step)(k, v, c);
        }
        *s = v;
        return NO_STOP;
}

/* Steps the set *s over edge (-1: none) and then the text p. Returns
 * NO_STOP, or EDGE_STOP (*s unchanged), or where in p it met a byte the
 * sets do not model (*s the set before it). */
static inline size_t FAST(enter)(const HwdbGlobKey *k, FAST_SET *s, int edge, const char *p) {
        size_t from = 0, stop;

        if (edge == '[') {
                size_t first, n;
                bool negated;

                from = simple_bracket(p, &negated, &first, &n);
                if (from == 0)
                        return EDGE_STOP;
                *s = FAST(bracket)(k, *s, p + first, n, negated);
        } else if (edge == '\\')
                return EDGE_STOP;
        else if (edge >= 0)
                *s = FAST(step)(k, *s, (uint8_t) edge);
        stop = FAST(steps)(k, s, p + from);
        return stop == NO_STOP ? NO_STOP : from + stop;
}

/* fast_handover() with the set in words. */
static int FAST(handover)(HwdbLookup *l, const HwdbBin *b, size_t n_stack, const HwdbNode *n, uint64_t off,
                          int edge, size_t skip, size_t j, FAST_SET set, const char *key, size_t pos,
                          uint64_t *visits) {
        uint64_t words[2];

        FAST(words)(set, words);
        return fast_handover(l, b, n_stack, n, off, edge, skip, j, words, key, pos, visits);
}

/* The glob scan below one glob start for a key whose position set fits
 * FAST_SET: the set is exactly fnmatch's answer at every node as long as
 * the pattern has only literal bytes, '*' and '?', so there is no pattern
 * to copy, no mode to carry and no fnmatch call. A subtree whose pattern
 * has '[' or '\\' where the set is still live goes to the general scan
 * (fast_handover()). Every bound, edge and visit check of the general scan
 * is made here too; the answers come in the same order. */
static int FAST(glob_scan_fast)(HwdbLookup *l, const HwdbBin *b, const HwdbNode *n, uint64_t off, int edge,
                                size_t skip, const char *key, size_t pos) {
        const HwdbGlobKey *k = l->glob;
        const unsigned len = (unsigned) k->len;
        uint64_t visits = l->visits;
        FAST_SET s = (FAST_SET) 1 << pos;
        size_t n_stack = 0, stop;
        int r;

        if (++visits > l->max_visits)
                return -ELOOP;
        stop = FAST(enter)(k, &s, edge, n->prefix + skip);
        if (stop != NO_STOP) {
                r = FAST(handover)(l, b, 0, n, off, edge, skip, stop, s, key, pos, &visits);
                goto done;
        }
        if (s == 0) {
                r = 0;
                goto done;
        }

        r = RESERVE(l->fast, l->fast_allocated, 1);
        if (r < 0)
                return r;
        l->fast[n_stack++] = (HwdbFastFrame) {
                .node = *n, .off = off, .FAST_FRAME_SET = s, .text = n->prefix + skip, .edge = edge,
        };

        while (n_stack > 0) {
                HwdbFastFrame *f = &l->fast[n_stack - 1];
                const FAST_SET fs = f->FAST_FRAME_SET;
                const unsigned nc = f->node.n_children;
                const uint8_t *e = b->data + f->node.children_off + (uint64_t) f->next_child * b->child_size;
                unsigned i = f->next_child;
                uint64_t child = 0;
                FAST_SET cs = 0;
                uint8_t c = 0;
                /* With one position in the set, only '*', '?' and the
                 * key's byte there can lead on ('[' and '\\' go to the
                 * general scan). */
                const int kc = (fs & (fs - 1)) == 0 ? FAST(byte_at)(k, fs) : -1;

                /* Most children are ruled out by their edge byte alone,
                 * without reading them. */
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
                        cs = FAST(step)(k, fs, c);
                        if (cs != 0)
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
                        if (c == '[' || c == '\\') {
                                cs = fs;
                                stop = FAST(enter)(k, &cs, c, cn.prefix);
                        } else
                                stop = FAST(steps)(k, &cs, cn.prefix);
                        if (stop != NO_STOP) {
                                r = FAST(handover)(l, b, n_stack, &cn, child, c, 0, stop, cs, key, pos, &visits);
                                if (r < 0)
                                        return r;
                                continue;
                        }
                        if (cs == 0)
                                continue;
                        if (cn.n_children == 0) {
                                /* Entered and left at once. */
                                if (cn.n_values > 0 && ((cs >> len) & 1)) {
                                        r = add_values(l, b, &cn);
                                        if (r < 0)
                                                return r;
                                }
                                continue;
                        }
                        r = RESERVE(l->fast, l->fast_allocated, n_stack + 1);
                        if (r < 0)
                                return r;
                        l->fast[n_stack++] = (HwdbFastFrame) {
                                .node = cn, .off = child, .FAST_FRAME_SET = cs, .text = cn.prefix, .edge = c,
                        };
                        continue;
                }

                if (f->node.n_values > 0 && ((fs >> len) & 1)) {
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
