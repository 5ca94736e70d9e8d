/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "name-index.h"
#include "yaml-tree.h"

YNode *ynode_free(YNode *n) {
        if (!n)
                return NULL;
        for (size_t i = 0; i < n->n_items; i++)
                ynode_free(n->items[i]);
        free(n->items);
        free(n->scalar);
        free(n);
        return NULL;
}

const YNode *ynode_get(const YNode *map, const char *key) {
        if (!map || map->kind != YNODE_MAPPING)
                return NULL;
        for (size_t i = 0; i + 1 < map->n_items; i += 2)
                if (map->items[i]->kind == YNODE_SCALAR && streq(map->items[i]->scalar, key))
                        return map->items[i + 1];
        return NULL;
}

/* Keys of a mapping by pair number, for the name index. */
static const char *pair_key(const void *map, size_t pair) {
        return ((const YNode *) map)->items[2 * pair]->scalar;
}

int ynode_find_duplicate_key(const YNode *n, const YNode **ret_dup, const YNode **ret_first) {
        NameIndex keys = {};
        int r = 0;

        if (!n || n->kind == YNODE_SCALAR)
                return 0;

        /* Depth first, each key checked before its value is entered: the
         * first repeat found is the first in the document. */
        for (size_t i = 0; i < n->n_items && r == 0; i++) {
                const YNode *k = n->items[i];

                if (n->kind == YNODE_MAPPING && i % 2 == 0 && k->kind == YNODE_SCALAR) {
                        size_t first;

                        if (name_index_find(&keys, k->scalar, pair_key, n, &first) >= 0) {
                                *ret_dup = k;
                                *ret_first = n->items[2 * first];
                                r = 1;
                                break;
                        }
                        r = name_index_add(&keys, i / 2, pair_key, n);
                        if (r < 0)
                                break;
                }
                r = ynode_find_duplicate_key(k, ret_dup, ret_first);
        }
        name_index_done(&keys);
        return r;
}

typedef struct Builder {
        YNode *stack[YAML_DEPTH_MAX + 1];
        size_t depth;
        size_t n_nodes;
        YNode *root;
        char *error;
} Builder;

static int set_error(Builder *b, const yaml_mark_t *m, const char *what) {
        free(b->error);
        if (asprintf(&b->error, "%zu:%zu: %s", m->line + 1, m->column + 1, what) < 0)
                b->error = NULL;
        return -EINVAL;
}

static int attach(Builder *b, YNode *n, const yaml_mark_t *m) {
        YNode *parent;
        int r;

        if (++b->n_nodes > YAML_NODES_MAX) {
                ynode_free(n);
                return set_error(b, m, "too many nodes");
        }
        if (b->depth == 0) {
                if (b->root) {
                        ynode_free(n);
                        return set_error(b, m, "more than one document");
                }
                b->root = n;
                return 0;
        }
        parent = b->stack[b->depth - 1];
        r = GREEDY_REALLOC(parent->items, parent->allocated, parent->n_items + 1);
        if (r < 0) {
                ynode_free(n);
                return r;
        }
        parent->items[parent->n_items++] = n;
        return 0;
}

static int handle_event(Builder *b, const yaml_event_t *ev) {
        const yaml_mark_t *m = &ev->start_mark;
        YNode *n;
        int r;

        switch (ev->type) {
        case YAML_ALIAS_EVENT:
                return set_error(b, m, "aliases are not allowed in policies");
        case YAML_SCALAR_EVENT:
                if (ev->data.scalar.anchor)
                        return set_error(b, m, "anchors are not allowed in policies");
                n = new0(YNode, 1);
                if (!n)
                        return -ENOMEM;
                n->kind = YNODE_SCALAR;
                n->line = (unsigned) m->line + 1;
                n->column = (unsigned) m->column + 1;
                n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
                n->scalar = strndup((const char *) ev->data.scalar.value, ev->data.scalar.length);
                if (!n->scalar) {
                        free(n);
                        return -ENOMEM;
                }
                if (strlen(n->scalar) != ev->data.scalar.length) {
                        ynode_free(n);
                        return set_error(b, m, "NUL character in a scalar");
                }
                return attach(b, n, m);
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
                if ((ev->type == YAML_SEQUENCE_START_EVENT ? ev->data.sequence_start.anchor
                                                           : ev->data.mapping_start.anchor))
                        return set_error(b, m, "anchors are not allowed in policies");
                if (b->depth >= YAML_DEPTH_MAX)
                        return set_error(b, m, "nesting too deep");
                n = new0(YNode, 1);
                if (!n)
                        return -ENOMEM;
                n->kind = ev->type == YAML_SEQUENCE_START_EVENT ? YNODE_SEQUENCE : YNODE_MAPPING;
                n->line = (unsigned) m->line + 1;
                n->column = (unsigned) m->column + 1;
                r = attach(b, n, m);
                if (r < 0)
                        return r;
                b->stack[b->depth++] = n;
                return 0;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
                if (b->depth > 0)
                        b->depth--;
                return 0;
        default:
                return 0;
        }
}

int ynode_parse(const char *text, size_t size, YNode **ret, char **ret_error) {
        Builder b = {};
        yaml_parser_t parser;
        bool done = false;
        int r = 0;

        if (size > YAML_SIZE_MAX) {
                if (ret_error)
                        *ret_error = strdup("1:1: policy larger than 16 MiB");
                return -EFBIG;
        }
        if (memchr(text, '\0', size)) {
                if (ret_error)
                        *ret_error = strdup("1:1: NUL byte in policy");
                return -EINVAL;
        }
        if (!yaml_parser_initialize(&parser))
                return -ENOMEM;
        yaml_parser_set_input_string(&parser, (const unsigned char *) text, size);

        while (!done && r >= 0) {
                yaml_event_t ev;

                if (!yaml_parser_parse(&parser, &ev)) {
                        yaml_mark_t m = parser.problem_mark;
                        char what[256];

                        if (parser.error == YAML_MEMORY_ERROR) {
                                r = -ENOMEM;
                                break;
                        }

                        /* Reader errors (bad UTF-8) carry only a byte offset. */
                        if (parser.error == YAML_READER_ERROR) {
                                m = (yaml_mark_t) {};
                                for (size_t i = 0; i < parser.problem_offset && i < size; i++)
                                        if (text[i] == '\n') {
                                                m.line++;
                                                m.column = 0;
                                        } else
                                                m.column++;
                        }

                        snprintf(what, sizeof(what), "%s%s%s", parser.problem ? parser.problem : "syntax error",
                                 parser.context ? " " : "", parser.context ? parser.context : "");
                        r = set_error(&b, &m, what);
                        break;
                }
                done = ev.type == YAML_STREAM_END_EVENT;
                r = handle_event(&b, &ev);
                yaml_event_delete(&ev);
        }
        yaml_parser_delete(&parser);

        if (r < 0) {
                ynode_free(b.root);
                if (ret_error)
                        *ret_error = TAKE_PTR(b.error);
                free(b.error);
                return r;
        }
        free(b.error);
        *ret = b.root;
        return 0;
}
