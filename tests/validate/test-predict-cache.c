/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The memo of judgements answers exactly what the judge answers: the same
 * verdicts, flags and messages, for every unit the value appears in. */
#include <stdio.h>
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/directive-table.h"
#include "validate/predict-cache.h"
#include "validate/unit-name.h"
#include "unit/unit-file.h"

typedef struct Line {
        const char *section, *key, *value;
} Line;

/* Plain, template and instance units of several types: values with
 * specifiers depend on the name, values without must not. */
static const char *const units[] = {
        "foo.service", "foo@.service", "foo@bar.service", "foo@baz.service", "bar@bar.service",
        "foo.socket",  "foo@.socket",  "foo@bar.socket",  "foo.timer",       "foo.mount",
        "foo.path",    "foo@x.timer",  NULL, /* no name: the type from the section */
};

static const Line lines[] = {
        { "Service", "User", "%i" },
        { "Service", "User", "%p" },
        { "Service", "User", "\\x25i" },   /* no unquoting for User=: a literal, bad name */
        { "Service", "User", "nobody" },
        { "Service", "User", "" },
        { "Service", "Group", "%%i" },
        { "Service", "SupplementaryGroups", "\\x25i adm" }, /* unquoted: "%i" */
        { "Service", "SupplementaryGroups", "\\045i" },
        { "Service", "SupplementaryGroups", "'%i' bad!name" },
        { "Service", "ExecStart", "/bin/echo \\x25i" },     /* the argument becomes "%i" */
        { "Service", "ExecStart", "/usr/bin/%p-helper --unit=%n" },
        { "Service", "ExecStart", "/usr/lib/\\x25p/run" },
        { "Service", "ExecStart", "-/bin/true" },
        { "Service", "ExecStart", "relative/path" },
        { "Service", "ExecStartPre", "/bin/sh -c \"echo \\u0025i\"" },
        { "Service", "WorkingDirectory", "/srv/%i" },
        { "Service", "WorkingDirectory", "-%i" },
        { "Service", "Type", "simple" },
        { "Service", "Type", "bogus" },
        { "Service", "TimeoutSec", "%i" },
        { "Service", "Environment", "A=%i B=\\x25n" },
        { "Service", "Accept", "yes" },   /* a [Socket] key in [Service] */
        { "Service", "Slice", "%i.slice" },
        { "Socket", "Accept", "yes" },
        { "Socket", "Service", "%p@%i.service" },
        { "Socket", "ListenStream", "/run/%i.sock" },
        { "Socket", "ExecStartPre", "/bin/echo \\x25i" },
        { "Timer", "Unit", "%p@%i.service" },
        { "Timer", "Unit", "foo@.service" },
        { "Timer", "OnCalendar", "daily" },
        { "Path", "Unit", "foo.service" },
        { "Mount", "What", "/dev/%i" },
        { "Mount", "Options", "ro,%i" },
        { "Unit", "After", "%i.service network.target" },
        { "Unit", "Wants", "foo@%i.service bar@\\x25i.service" },
        { "Unit", "Requires", "foo@.service" },
        { "Unit", "Description", "Worker %i for %N" },
        { "Unit", "Description", "100\\x25 done" },
        { "Unit", "Documentation", "man:foo(8)" },
        { "Unit", "ConditionPathExists", "!/etc/%i" },
        { "Unit", "Bogus", "1" },
        { "Unit", "X-Custom", "%i" },
        { "Install", "WantedBy", "%i.target" },
        { "Install", "Alias", "bad name" },
        { "Install", "DefaultInstance", "%i" },
        { "Bogus", "Key", "%i" },
        { "Bogusx", "Key", "%i" },   /* an unknown section: its name is in the message */
        { "X-Section", "Key", "v" },
        { "Service", "Unknown%Key", "v" },
        { "Service", "User", "%Z" },   /* an unknown specifier */
        { "Service", "User", "%" },
};

static const unsigned versions[] = { 233, 252, 257 };

static bool same_judgement(const Judgement *a, const Judgement *b) {
        return a->verdict == b->verdict && a->directive == b->directive && a->invalid == b->invalid &&
               a->dash_escaped == b->dash_escaped && a->deferred == b->deferred && a->names_root == b->names_root &&
               a->partial == b->partial && a->machine == b->machine && streq_ptr(a->message, b->message);
}

/* A memo past its probation: the tests of the table, the history and the
 * keys judge files through it from the first one. */
static PredictCache *memo_new(void) {
        PredictCache *c = predict_cache_new();

        if (c)
                predict_cache_activate(c);
        return c;
}

/* One line of one unit, with and without the memo; false on a difference. */
static bool judge_both(PredictCache *c, const char *unit, unsigned version, bool typed, const Line *l) {
        JudgeContext ctx = {
                .version = version,
                .type = typed && unit ? unit_name_to_type(unit) : _UNIT_TYPE_INVALID,
                .unit_name = unit,
        };
        DirectiveSection id = directive_section_from_name(l->section);
        _cleanup_(judgement_done) Judgement plain = {}, memo = {};
        PredictScope scope;

        CHECK_INT_EQ(judge_assignment_in(&ctx, id, l->section, l->key, l->value, &plain), 0);
        predict_cache_scope(&scope, &ctx, id, l->section);
        CHECK_INT_EQ(predict_cache_judge(c, &scope, l->key, strlen(l->key), l->value, strlen(l->value), &memo), 0);
        if (same_judgement(&plain, &memo))
                return true;
        fprintf(stderr, "v%u %s [%s] %s=%s: judge %s '%s', memo %s '%s'\n", version, unit ? unit : "(none)",
                l->section, l->key, l->value, verdict_to_string(plain.verdict), plain.message ? plain.message : "",
                verdict_to_string(memo.verdict), memo.message ? memo.message : "");
        return false;
}

/* Every line in every unit and version, three rounds in different orders,
 * so that each answer given for one unit is asked for by all the others.
 * Lines judged one by one go through the memo at once (no probation). */
TEST(same_answers) {
        _cleanup_(predict_cache_freep) PredictCache *c = predict_cache_new();
        size_t n_units = ELEMENTSOF(units), hits, misses, asked = 0;

        CHECK(c);
        if (!c)
                return;
        for (unsigned round = 0; round < 3; round++)
                for (size_t vi = 0; vi < ELEMENTSOF(versions); vi++)
                        for (size_t li = 0; li < ELEMENTSOF(lines); li++)
                                for (size_t k = 0; k < n_units; k++) {
                                        /* Round 1 walks the units backwards. */
                                        size_t ui = round == 1 ? n_units - 1 - k : k;

                                        if (!judge_both(c, units[ui], versions[vi], round != 2, &lines[li]))
                                                tests_failed++;
                                        asked++;
                                }
        predict_cache_stats(c, &hits, &misses);
        CHECK_INT_EQ(hits + misses, asked);
        CHECK(!predict_cache_active(c));
        /* Lines without a specifier or escape are shared by all units of a
         * type: most answers come from the memo. */
        CHECK(hits > asked / 2);
        CHECK(misses < asked / 3);
}

/* A unit file of a few lines, the n-th of its kind (distinct bytes for
 * distinct n), parsed. */
static UnitFile *numbered_file(unsigned n) {
        char text[160], name[32];
        UnitFile *f = NULL;
        char *data;
        int len;

        snprintf(name, sizeof name, "u%u.service", n);
        len = snprintf(text, sizeof text, "[Unit]\nDescription=unit %u\n[Service]\nType=oneshot\nExecStart=/bin/true %u\n",
                       n, n);
        data = strndup(text, (size_t) len);
        CHECK(data != NULL);
        if (data)
                CHECK_INT_EQ(unit_file_parse(data, (size_t) len, name, name, false, &f), 0);
        return f;
}

/* The file through the memo and without: the same judgements; false on a
 * difference. */
static bool judge_file_both(PredictCache *c, const UnitFile *f) {
        JudgeContext ctx = { .version = 252, .type = UNIT_SERVICE, .unit_name = f->unit_name };
        Judgement want[8] = {}, got[8] = {};
        uint32_t listed_want[8], listed_got[8];
        int n_want, n_got;
        bool same = true;

        if (f->n_entries > ELEMENTSOF(want))
                return false;
        n_want = predict_cache_judge_file(NULL, &ctx, f, want, listed_want);
        n_got = predict_cache_judge_file(c, &ctx, f, got, listed_got);
        same = n_want == n_got && n_want >= 0;
        for (size_t i = 0; i < f->n_entries; i++) {
                same = same && same_judgement(&want[i], &got[i]);
                judgement_done(&want[i]);
                judgement_done(&got[i]);
        }
        for (int i = 0; same && i < n_want; i++)
                same = listed_want[i] == listed_got[i];
        return same;
}

/* Files judged through the memo: directly while they are new; the memo
 * starts once eight files, and one in sixteen, came again, and from the
 * next copy on answers their lines. Distinct files never start it, however
 * many (its bits are cleared when half full). */
TEST(probation) {
        _cleanup_(predict_cache_freep) PredictCache *c = predict_cache_new();
        enum { N = 200 };
        UnitFile *files[N] = {};
        size_t hits, misses, before;

        CHECK(c);
        if (!c)
                return;
        for (unsigned i = 0; i < N; i++) {
                files[i] = numbered_file(i);
                if (!files[i])
                        goto done;
        }
        /* 200 new files, then 12 of them again: 12 repeats of 212 files
         * are fewer than one in sixteen. */
        for (unsigned i = 0; i < N; i++)
                CHECK(judge_file_both(c, files[i]));
        for (unsigned i = 0; i < 12; i++)
                CHECK(judge_file_both(c, files[i]));
        predict_cache_stats(c, &hits, &misses);
        CHECK(!predict_cache_active(c));
        CHECK_INT_EQ(hits + misses, 0);
        CHECK_INT_EQ(predict_cache_size(c), 0);
        /* The next repeats: at the 14th, 14 * 16 >= 214 files. */
        for (unsigned i = 12; i < 14; i++) {
                CHECK(!predict_cache_active(c));
                CHECK(judge_file_both(c, files[i]));
        }
        CHECK(predict_cache_active(c));
        predict_cache_stats(c, &hits, &misses);
        CHECK_INT_EQ(hits, 0);
        CHECK(misses > 0 && predict_cache_size(c) > 0);
        /* Stored at their first miss: another copy answers from the memo,
         * but for the lines that name the unit's number, which repeat
         * within no other file. */
        for (unsigned i = 14; i < 40; i++)
                CHECK(judge_file_both(c, files[i]));
        predict_cache_stats(c, &before, &misses);
        for (unsigned i = 14; i < 40; i++)
                CHECK(judge_file_both(c, files[i]));
        predict_cache_stats(c, &hits, &misses);
        CHECK_INT_EQ(hits - before, 26 * 3);

        /* 20,000 distinct files on a fresh memo: never started. */
        predict_cache_freep(&c);
        c = predict_cache_new();
        CHECK(c);
        for (unsigned i = 0; c && i < 20000; i++) {
                _cleanup_(unit_file_freep) UnitFile *f = numbered_file(N + i);

                if (!f || !judge_file_both(c, f)) {
                        tests_failed++;
                        break;
                }
        }
        CHECK(!predict_cache_active(c));
        CHECK_INT_EQ(predict_cache_size(c), 0);
done:
        for (unsigned i = 0; i < N; i++)
                unit_file_free(files[i]);
}

/* A value with a specifier is judged for each name; one without is judged
 * once for all units of the type (and again in another type or version). */
TEST(keyed_on_name_only_when_needed) {
        _cleanup_(predict_cache_freep) PredictCache *c = memo_new();
        static const Line plain = { "Service", "ExecStart", "/bin/echo hello" };
        static const Line spec = { "Service", "ExecStart", "/bin/echo %i" };
        static const Line escaped = { "Service", "ExecStart", "/bin/echo \\x25i" };
        static const struct {
                const char *unit;
                unsigned version;
                const Line *line;
                bool hit;
        } steps[] = {
                { "a@1.service", 252, &plain, false },
                { "a@2.service", 252, &plain, true },
                { "b.service", 252, &plain, true },
                { "a@1.service", 252, &spec, false },
                { "a@.service", 252, &spec, false },
                { "a@1.service", 252, &escaped, false },
                { "a@.service", 252, &escaped, false },
                { "a@1.service", 252, &spec, true },
                { "b.socket", 252, &plain, false },
                { "b.service", 257, &plain, false },
        };
        size_t hits, misses, before;

        CHECK(c);
        if (!c)
                return;
        for (size_t i = 0; i < ELEMENTSOF(steps); i++) {
                predict_cache_stats(c, &before, &misses);
                CHECK(judge_both(c, steps[i].unit, steps[i].version, true, steps[i].line));
                predict_cache_stats(c, &hits, &misses);
                if ((hits > before) != steps[i].hit) {
                        fprintf(stderr, "step %zu (%s v%u %s=%s): %s, expected %s\n", i, steps[i].unit,
                                steps[i].version, steps[i].line->key, steps[i].line->value,
                                hits > before ? "hit" : "miss", steps[i].hit ? "hit" : "miss");
                        tests_failed++;
                }
        }
        CHECK_INT_EQ(hits, 3);
        CHECK_INT_EQ(misses, 7);
}

/* The table starts small and doubles while half full or when a line's set
 * is full, to 16384 slots, losing no answer on the way; it holds 8192
 * answers at most; answers stay the judge's. */
TEST(grows_on_demand) {
        _cleanup_(predict_cache_freep) PredictCache *c = memo_new();
        char value[64];
        Line l = { "Service", "TimeoutStopSec", value };
        size_t capacity, hits, misses, before;
        unsigned grown = 0;

        CHECK(c);
        if (!c)
                return;
        CHECK_INT_EQ(predict_cache_capacity(c), 0); /* nothing allocated before the first line */
        for (unsigned i = 0; i < 12000; i++) {
                capacity = predict_cache_capacity(c);
                before = predict_cache_size(c);
                snprintf(value, sizeof value, "%ums", i);
                if (!judge_both(c, "foo.service", 252, true, &l))
                        tests_failed++;
                if (predict_cache_capacity(c) != capacity) {
                        CHECK_INT_EQ(predict_cache_capacity(c), capacity ? 2 * capacity : 1024);
                        CHECK(before <= capacity / 2);
                        grown++;
                        /* Every answer moved to its new set is found there
                         * (none has been dropped yet: all are hits). In
                         * reverse order: the history, which hints at the
                         * lines in the order they came, does not answer. */
                        if (predict_cache_size(c) == i + 1) {
                                size_t h0, h1, m0, m1;

                                predict_cache_stats(c, &h0, &m0);
                                for (unsigned k = i + 1; k-- > 0;) {
                                        snprintf(value, sizeof value, "%ums", k);
                                        if (!judge_both(c, "foo.service", 252, true, &l))
                                                tests_failed++;
                                }
                                predict_cache_stats(c, &h1, &m1);
                                CHECK_INT_EQ(h1 - h0, i + 1);
                                CHECK_INT_EQ(m1, m0);
                                snprintf(value, sizeof value, "%ums", i);
                        }
                }
                /* Until the table is at its largest, every answer is kept
                 * beside every old one. */
                if (capacity < 16384)
                        CHECK_INT_EQ(predict_cache_size(c), before + 1);
                CHECK(predict_cache_size(c) <= 8192);
        }
        CHECK_INT_EQ(grown, 5); /* 1024, 2048, 4096, 8192, 16384 */
        CHECK_INT_EQ(predict_cache_capacity(c), 16384);
        CHECK_INT_EQ(predict_cache_size(c), 8192);

        /* The most recent answers are all still there. */
        predict_cache_stats(c, &before, &misses);
        for (unsigned i = 12000 - 200; i < 12000; i++) {
                snprintf(value, sizeof value, "%ums", i);
                if (!judge_both(c, "foo.service", 252, true, &l))
                        tests_failed++;
        }
        predict_cache_stats(c, &hits, &misses);
        CHECK_INT_EQ(hits - before, 200);
}

/* More distinct lines than the memo holds: old answers are replaced,
 * never mixed up. */
TEST(bounded) {
        _cleanup_(predict_cache_freep) PredictCache *c = memo_new();
        char value[64];
        Line l = { "Service", "TimeoutStartSec", value };
        /* Asked after every other line: never the least recently used, so
         * always answered by the memo, also after its record was moved
         * (the arena is compacted several times on the way). */
        static const Line hot = { "Service", "SupplementaryGroups", "adm bad!name" };
        Line big = { "Service", "Environment", NULL };
        static char long_value[PREDICT_CACHE_MAX_LINE + 100];
        size_t hits, misses, before, hot_hits = 0;

        CHECK(c);
        if (!c)
                return;
        for (unsigned round = 0; round < 2; round++)
                for (unsigned i = 0; i < 20000; i++) {
                        snprintf(value, sizeof value, i % 3 ? "%us" : "%ux", i);
                        if (!judge_both(c, "foo.service", 252, true, &l))
                                tests_failed++;
                        predict_cache_stats(c, &before, &misses);
                        if (!judge_both(c, "foo.service", 252, true, &hot))
                                tests_failed++;
                        predict_cache_stats(c, &hits, &misses);
                        hot_hits += hits - before;
                }
        CHECK_INT_EQ(hot_hits, 40000 - 1);
        predict_cache_stats(c, &hits, &misses);
        CHECK_INT_EQ(hits + misses, 80000);
        CHECK(misses > 20000); /* more than it holds: the second round misses too */
        CHECK(predict_cache_size(c) <= 8192);

        /* A line too long for the memo is judged every time. */
        memset(long_value, 'a', sizeof long_value - 1);
        memcpy(long_value, "A=", 2);
        big.value = long_value;
        CHECK(judge_both(c, "foo.service", 252, true, &big));
        CHECK(judge_both(c, "foo.service", 252, true, &big));
        predict_cache_stats(c, &hits, &misses);
        CHECK_INT_EQ(hits + misses, 80000);
}

/* Two instances of a template asking for a value with %i get answers of
 * their own, from the memo too: the second instance never gets the
 * first's, and each gets its own again. */
TEST(name_counts_per_instance) {
        _cleanup_(predict_cache_freep) PredictCache *c = memo_new();
        static const Line l = { "Service", "User", "%i" };
        static const char *const names[] = { "run@root.service", "run@bad!name.service", "run@root.service",
                                              "run@bad!name.service" };
        size_t hits, misses;

        CHECK(c);
        if (!c)
                return;
        for (size_t i = 0; i < ELEMENTSOF(names); i++)
                CHECK(judge_both(c, names[i], 252, true, &l));
        predict_cache_stats(c, &hits, &misses);
        CHECK_INT_EQ(misses, 2);
        CHECK_INT_EQ(hits, 2);
}

/* A line as the parser leaves it ("key\0value" in one buffer) and the same
 * line in two strings are one key; lines that differ in one byte anywhere,
 * at every length around the hash's and the compare's 4-, 8- and 16-byte
 * blocks, are not. */
TEST(texts_compared_whole) {
        _cleanup_(predict_cache_freep) PredictCache *c = memo_new();
        JudgeContext ctx = { .version = 252, .type = _UNIT_TYPE_INVALID, .unit_name = "foo.service" };
        char buf[128], value[64], other[64];
        size_t hits, misses, before;
        PredictScope scope;

        CHECK(c);
        if (!c)
                return;
        predict_cache_scope(&scope, &ctx, directive_section_from_name("Unit"), "Unit");
        for (size_t n = 0; n <= 40; n++) {
                for (size_t i = 0; i < n; i++)
                        value[i] = (char) ('a' + (i * 7 + n) % 26);
                value[n] = '\0';
                /* In one buffer, as parsed, then apart: one miss, one hit. */
                memcpy(buf, "Description", 12);
                memcpy(buf + 12, value, n + 1);
                for (unsigned round = 0; round < 2; round++) {
                        _cleanup_(judgement_done) Judgement j = {};
                        const char *v = round == 0 ? buf + 12 : value;

                        predict_cache_stats(c, &before, &misses);
                        CHECK_INT_EQ(predict_cache_judge(c, &scope, "Description", 11, v, n, &j), 0);
                        predict_cache_stats(c, &hits, &misses);
                        CHECK_INT_EQ(hits - before, round);
                        CHECK(n == 0 || j.verdict == VERDICT_OK); /* empty: a reset */
                }
                /* One byte changed, at each place: a miss each time. */
                for (size_t i = 0; i < n; i++) {
                        _cleanup_(judgement_done) Judgement j = {};

                        memcpy(other, value, n + 1);
                        other[i] = '_';
                        predict_cache_stats(c, &before, &misses);
                        CHECK_INT_EQ(predict_cache_judge(c, &scope, "Description", 11, other, n, &j), 0);
                        predict_cache_stats(c, &hits, &misses);
                        if (hits != before) {
                                fprintf(stderr, "'%s' answered as '%s'\n", other, value);
                                tests_failed++;
                        }
                }
        }
        /* A NUL inside the key's place: key "Desc" with value
         * "ription\0..." is not key "Description". */
        {
                _cleanup_(judgement_done) Judgement a = {}, b = {};

                memcpy(buf, "Documentation\0man:x(1)", 23);
                CHECK_INT_EQ(predict_cache_judge(c, &scope, buf, 13, buf + 14, 8, &a), 0);
                predict_cache_stats(c, &before, &misses);
                CHECK_INT_EQ(predict_cache_judge(c, &scope, "Documentation", 13, "man:x(1)", 8, &b), 0);
                predict_cache_stats(c, &hits, &misses);
                CHECK_INT_EQ(hits - before, 1);
                CHECK(a.verdict == b.verdict && a.directive == b.directive);
        }
}

/* Lines in the order of an earlier file: the record after the previous
 * line's is tried first (the memo's hint). It answers only its own key:
 * not a line of the same lengths that differs in one byte, nor one of
 * another section with a name of the same length, nor another instance's
 * line with a specifier; and a line seen in another order is still
 * found. */
TEST(hint_answers_only_its_own_key) {
        _cleanup_(predict_cache_freep) PredictCache *c = memo_new();
        static const Line seq[] = {
                { "Unit", "Description", "first" },
                { "Unit", "After", "network.target" },
                { "Service", "ExecStart", "/bin/echo %i" },
                { "Service", "Nice", "5" },
                { "X-Foo", "Key", "value" },
                { "Service", "Type", "simple" },
        };
        /* Each the same lengths as its line in seq, or the same text in
         * another scope. */
        static const Line twisted[] = {
                { "Unit", "Description", "first" },
                { "Unit", "After", "network.targex" },
                { "Service", "ExecStart", "/bin/echo %i" }, /* asked for by another instance */
                { "Service", "Nice", "6" },
                { "X-Bar", "Key", "value" },
                { "Service", "Type", "notify" },
        };
        static const bool twisted_hit[] = { true, false, false, false, false, false };
        size_t hits, misses, before;

        CHECK(c);
        if (!c)
                return;
        for (unsigned round = 0; round < 3; round++)
                for (size_t i = 0; i < ELEMENTSOF(seq); i++) {
                        predict_cache_stats(c, &before, &misses);
                        CHECK(judge_both(c, "a@1.service", 252, true, &seq[i]));
                        predict_cache_stats(c, &hits, &misses);
                        CHECK_INT_EQ(hits - before, round > 0);
                }
        /* Each twisted line right after the line that comes before it in
         * seq, whose hint is then seq's line. */
        for (size_t i = 0; i < ELEMENTSOF(twisted); i++) {
                if (i > 0)
                        CHECK(judge_both(c, "a@1.service", 252, true, &seq[i - 1]));
                predict_cache_stats(c, &before, &misses);
                CHECK(judge_both(c, "a@2.service", 252, true, &twisted[i]));
                predict_cache_stats(c, &hits, &misses);
                if ((hits > before) != twisted_hit[i]) {
                        fprintf(stderr, "twisted line %zu: %s\n", i, hits > before ? "hit" : "miss");
                        tests_failed++;
                }
        }
        /* Backwards, then the first order again: all found, all the
         * judge's answers. */
        for (size_t i = ELEMENTSOF(seq); i-- > 0;) {
                predict_cache_stats(c, &before, &misses);
                CHECK(judge_both(c, "a@1.service", 252, true, &seq[i]));
                predict_cache_stats(c, &hits, &misses);
                CHECK_INT_EQ(hits - before, 1);
        }
        for (size_t i = 0; i < ELEMENTSOF(seq); i++)
                CHECK(judge_both(c, "a@1.service", 252, true, &seq[i]));
        predict_cache_stats(c, &hits, &misses);
        CHECK_INT_EQ(misses, ELEMENTSOF(seq) + 5);
}

/* The history's candidate: two files that share a line, then go on
 * differently, are followed each on its own after the first time (a
 * record's single successor would lose one of them at the shared line);
 * a line whose candidate is a record of the same lengths, another section
 * or another instance's, gets the judge's answer; and after more lines
 * than the history holds, and lines not in the memo in between, the
 * files are answered and followed again. */
TEST(history_follows_files) {
        _cleanup_(predict_cache_freep) PredictCache *c = memo_new();
        static const Line a[] = {
                { "Unit", "Description", "file a" },
                { "Unit", "After", "network.target" },
                { "Service", "Type", "simple" },
                { "Service", "ExecStart", "/bin/echo %i" },
                { "Service", "Nice", "5" },
                { "Service", "User", "%i" },
        };
        static const Line b[] = {
                { "Unit", "Description", "file b" },
                { "Unit", "After", "network.target" },
                { "Service", "Type", "notify" },
                { "Service", "Nice", "7" },
                { "Service", "User", "nobody" },
        };
        /* Lines asked for where the candidate is a[at] of a@1.service: the
         * same lengths, the same text in another section, or in another
         * instance (whose name has the same length, or not), or with no
         * unit name. */
        static const struct {
                size_t at;
                const char *unit;
                Line line;
        } twisted[] = {
                { 2, "a@1.service", { "Service", "Type", "simplf" } },
                { 2, "a@1.service", { "Socket", "Type", "simple" } },
                { 3, "a@2.service", { "Service", "ExecStart", "/bin/echo %i" } },
                { 3, "a@12.service", { "Service", "ExecStart", "/bin/echo %i" } },
                { 3, NULL, { "Service", "ExecStart", "/bin/echo %i" } },
                { 3, "a@1.service", { "Service", "ExecStart", "/bin/echo %I" } },
                { 5, "a@0.service", { "Service", "User", "%i" } }, /* root, where a@1's is not */
        };
        static const Line filler = { "Service", "TimeoutSec", "5" };
        static const Line unmemoized = { "Service", "Environment", NULL };
        static char long_value[PREDICT_CACHE_MAX_LINE + 10];
        Line big = unmemoized;
        size_t hits, misses, before, hinted;

        CHECK(c);
        if (!c)
                return;
        for (unsigned round = 0; round < 3; round++) {
                hinted = predict_cache_hinted(c);
                for (size_t i = 0; i < ELEMENTSOF(a); i++)
                        CHECK(judge_both(c, "a@1.service", 252, true, &a[i]));
                for (size_t i = 0; i < ELEMENTSOF(b); i++)
                        CHECK(judge_both(c, "b.service", 252, true, &b[i]));
                /* From the second round on, every line comes from the
                 * history (the one with a specifier too, the answer under
                 * the unit name); but a[0] in the second round, the first
                 * time it comes after b's last line. */
                if (round > 0)
                        CHECK_INT_EQ(predict_cache_hinted(c) - hinted, ELEMENTSOF(a) + ELEMENTSOF(b) - (round == 1));
        }
        for (size_t t = 0; t < ELEMENTSOF(twisted); t++) {
                for (size_t i = 0; i < twisted[t].at; i++)
                        CHECK(judge_both(c, "a@1.service", 252, true, &a[i]));
                hinted = predict_cache_hinted(c);
                CHECK(judge_both(c, twisted[t].unit, 252, true, &twisted[t].line));
                CHECK_INT_EQ(predict_cache_hinted(c), hinted);
        }
        /* More lines than the history holds, one line too long for the
         * memo among them, then the files twice: the same answers, from
         * the memo; the first time none from the history, whose places of
         * these records are gone, the second time followed again. */
        memset(long_value, 'a', sizeof long_value - 1);
        big.value = long_value;
        CHECK(judge_both(c, "b.service", 252, true, &big));
        for (unsigned i = 0; i < 40000; i++) {
                Judgement j;
                PredictScope scope;
                JudgeContext ctx = { .version = 252, .type = UNIT_SERVICE, .unit_name = "f.service" };

                predict_cache_scope(&scope, &ctx, directive_section_from_name(filler.section), filler.section);
                CHECK_INT_EQ(predict_cache_judge(c, &scope, filler.key, strlen(filler.key), filler.value,
                                                 strlen(filler.value), &j), 0);
                judgement_done(&j);
        }
        CHECK(judge_both(c, "b.service", 252, true, &big));
        for (unsigned round = 0; round < 2; round++) {
                predict_cache_stats(c, &before, &misses);
                hinted = predict_cache_hinted(c);
                for (size_t i = 0; i < ELEMENTSOF(a); i++)
                        CHECK(judge_both(c, "a@1.service", 252, true, &a[i]));
                for (size_t i = 0; i < ELEMENTSOF(b); i++)
                        CHECK(judge_both(c, "b.service", 252, true, &b[i]));
                predict_cache_stats(c, &hits, &misses);
                CHECK_INT_EQ(hits - before, ELEMENTSOF(a) + ELEMENTSOF(b));
                /* (a[0] after b[4] found through the set: b[4]'s place
                 * was not known.) */
                CHECK_INT_EQ(predict_cache_hinted(c) - hinted, round == 0 ? 0 : ELEMENTSOF(a) + ELEMENTSOF(b) - 1);
        }
}

/* A whole file through the memo (twice: judged, then from the history)
 * and without it, against the judge line by line: entries before any
 * section, in unknown, X- and repeated sections, a section reopened after
 * another, a value with a specifier. Lines outside a known section get a
 * zeroed judgement, the listed ones are the same each way. */
TEST(judge_file_as_lines) {
        static const char text[] =
                "Description=before any section\n"
                "[Unit]\nDescription=a\nAfter=b.target\n"
                "[Service]\nType=simple\nExecStart=/bin/true %i\nUser=%i\nNice=99\n"
                "[Bogus]\nKey=value\n"
                "[X-Other]\nKey=value\n"
                "[Unit]\nWants=c.target\nNoSuchKey=1\n"
                "[Install]\nWantedBy=multi-user.target\n"
                "[Service]\nUser=nobody\nDynamicUser=yes\n";
        _cleanup_(predict_cache_freep) PredictCache *c = memo_new();
        _cleanup_(unit_file_freep) UnitFile *f = NULL;
        char *data = strdup(text);
        const char *name = "x@1.service";
        JudgeContext ctx = { .version = 252, .type = UNIT_SERVICE, .unit_name = name };
        Judgement want[32], got[32];
        uint32_t listed_plain[32], listed[32];
        int n_plain;

        CHECK(c && data);
        if (!c || !data)
                return;
        CHECK_INT_EQ(unit_file_parse(data, strlen(text), name, name, false, &f), 0);
        CHECK(f && f->n_entries <= ELEMENTSOF(want));
        if (!f || f->n_entries > ELEMENTSOF(want))
                return;
        n_plain = predict_cache_judge_file(NULL, &ctx, f, want, listed_plain);
        CHECK(n_plain > 0);
        for (size_t i = 0; i < f->n_entries; i++) {
                const UnitEntry *e = &f->entries[i];
                _cleanup_(judgement_done) Judgement one = {};
                const char *section = unit_entry_section(f, e);

                if (e->section < 0 || f->sections[e->section].state != SECTION_KNOWN) {
                        CHECK(want[i].verdict == VERDICT_OK && !want[i].directive && !want[i].message);
                        continue;
                }
                CHECK_INT_EQ(judge_assignment_in(&ctx, directive_section_from_name(section), section, e->key,
                                                 e->value, &one), 0);
                CHECK(same_judgement(&one, &want[i]));
        }
        for (unsigned round = 0; round < 2; round++) {
                size_t hinted = predict_cache_hinted(c);

                CHECK_INT_EQ(predict_cache_judge_file(c, &ctx, f, got, listed), n_plain);
                for (size_t i = 0; i < f->n_entries; i++) {
                        CHECK(same_judgement(&got[i], &want[i]));
                        judgement_done(&got[i]);
                }
                for (int k = 0; k < n_plain; k++)
                        CHECK_INT_EQ(listed[k], listed_plain[k]);
                /* The second time, every judged line from the history. */
                if (round == 1)
                        CHECK(predict_cache_hinted(c) - hinted >= (size_t) n_plain);
        }
        for (size_t i = 0; i < f->n_entries; i++)
                judgement_done(&want[i]);
}

TEST(no_memo) {
        static const Line l = { "Service", "User", "%i" };

        /* NULL: the judge itself. */
        CHECK(judge_both(NULL, "foo@bar.service", 252, true, &l));
}

/* line judged for each of names with a fresh memo: false on a difference. */
static bool same_for_names(const char *const *names, size_t n, const Line *line) {
        _cleanup_(predict_cache_freep) PredictCache *c = memo_new();
        bool same = true;

        CHECK(c);
        if (!c)
                return false;
        for (size_t i = 0; i < n; i++)
                same = judge_both(c, names[i], 252, true, line) && same;
        return same;
}

/* A '%' or a '\\' anywhere in a value of any length keys its answer on the
 * unit name: the memo scans values in blocks of sixteen, eight and four
 * bytes and the bytes left, and must find the byte at every place of
 * each. Each value is judged for a template first, then for an instance,
 * whose answer differs (deferred, or not). */
TEST(named_found_anywhere) {
        static const char *const names[] = { "foo@.service", "foo@bar.service", "foo@.service" };
        char value[128];
        const Line d = { "Unit", "Description", value }, e = { "Service", "ExecStart", value };

        for (size_t len = 2; len < 70; len++)
                for (size_t at = 0; at + 2 <= len; at++) {
                        memset(value, 'a', len);
                        value[len] = '\0';
                        value[at] = '%';
                        value[at + 1] = 'i';
                        if (!same_for_names(names, ELEMENTSOF(names), &d))
                                tests_failed++;
                }
        /* '\\' (unquoted in an Exec line to a specifier). */
        for (size_t len = 0; len < 60; len++) {
                memcpy(value, "/b ", 3);
                memset(value + 3, 'a', len);
                memcpy(value + 3 + len, "\\x25i", 6);
                if (!same_for_names(names, ELEMENTSOF(names), &e))
                        tests_failed++;
        }
        for (size_t len = 0; len < 60; len++) {
                memcpy(value, "/b \\x25i", 8);
                memset(value + 8, 'a', len);
                value[8 + len] = '\0';
                if (!same_for_names(names, ELEMENTSOF(names), &e))
                        tests_failed++;
        }
}

TESTS_MAIN(T(named_found_anywhere), T(same_answers), T(probation), T(history_follows_files), T(keyed_on_name_only_when_needed), T(name_counts_per_instance), T(grows_on_demand),
           T(bounded), T(texts_compared_whole), T(hint_answers_only_its_own_key), T(judge_file_as_lines), T(no_memo))
