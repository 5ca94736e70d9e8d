/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* A small YAML document tree built from libyaml's event stream, with the
 * position of every node. Policies are small and reviewed by people, so
 * the reader is strict: anchors and aliases are refused (no alias bombs),
 * nesting and size are capped, and only one document is allowed. */

#define YAML_DEPTH_MAX 32
#define YAML_SIZE_MAX ((size_t) 16 * 1024 * 1024)
#define YAML_NODES_MAX 1000000

typedef enum YNodeKind {
        YNODE_SCALAR,
        YNODE_SEQUENCE,
        YNODE_MAPPING,
} YNodeKind;

typedef struct YNode YNode;
struct YNode {
        YNodeKind kind;
        unsigned line, column;   /* 1-based */
        char *scalar;            /* YNODE_SCALAR */
        bool plain;              /* scalar was not quoted */
        YNode **items;           /* sequence items, or mapping key, value, key, value... */
        size_t n_items, allocated;
};

/* Parses text (size bytes). On failure returns a negative errno and, if
 * ret_error is given, a message "LINE:COL: what" (malloc'd). An empty
 * document gives a NULL tree. */
int ynode_parse(const char *text, size_t size, YNode **ret, char **ret_error);
YNode *ynode_free(YNode *n);

/* Mapping lookup by key; NULL if absent. */
const YNode *ynode_get(const YNode *map, const char *key);

/* Finds the first scalar key, in document order, that repeats a key of the
 * same mapping, anywhere in the tree: returns 1 with *ret_dup (the repeat)
 * and *ret_first (the earlier one), 0 if every key is unique, or -ENOMEM.
 * Linear in the size of the tree. */
int ynode_find_duplicate_key(const YNode *root, const YNode **ret_dup, const YNode **ret_first);
