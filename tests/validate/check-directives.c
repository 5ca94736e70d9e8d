/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reads "type<TAB>section<TAB>key" lines and fails when the directive table
 * does not know one of them. */
#include <stdio.h>
#include <string.h>

#include "validate/directive-table.h"

int main(void) {
        char line[1024];
        int missing = 0, n = 0;

        while (fgets(line, sizeof(line), stdin)) {
                char *type, *section, *key, *save = NULL;
                UnitType t;

                line[strcspn(line, "\n")] = '\0';
                type = strtok_r(line, "\t", &save);
                section = strtok_r(NULL, "\t", &save);
                key = strtok_r(NULL, "\t", &save);
                if (!type || !section || !key)
                        continue;
                n++;
                t = unit_type_from_string(type);
                if (!directive_lookup(t, section, key)) {
                        fprintf(stderr, "missing from the directive table: %s [%s] %s=\n", type, section, key);
                        missing++;
                }
        }
        printf("%d directives, %d missing\n", n, missing);
        return missing ? 1 : 0;
}
