/* libFuzzer target for the tco command's JSON scenario path
 * (tools/tco/input.c, through jansson), with a round-trip property: a text
 * that loads is written back as JSON (tools/tco/scenario.c), and that JSON
 * loads to the very same scenario: the same canonical CBOR, byte for byte.
 * A text that does not load must say so (the command's message) and leave
 * nothing allocated that the sanitizers would see leak.
 * Built with -Dfuzz=true and clang (tests/fuzz/README.md). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tco_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The command's messages: counted, not printed. */
static int said;
void say(const char *fmt, ...)
{
    (void)fmt;
    said++;
}
int usage(const char *fmt, const char *arg)
{
    (void)fmt;
    (void)arg;
    return EXIT_USAGE;
}

static void check(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "fuzz_json: %s\n", what);
        abort();
    }
}

/* The canonical CBOR of a scenario, in a new buffer. */
static uint8_t *cbor_of(const scenario *s, size_t *len)
{
    tco_error err = TCO_ERROR_INIT;
    check(tco_scenario_save_cbor(NULL, 0, len, s->t, s->w, s->p, &err) == TCO_OK, "a frozen scenario saves");
    uint8_t *buf = malloc(*len);
    check(buf && tco_scenario_save_cbor(buf, *len, len, s->t, s->w, s->p, &err) == TCO_OK, "the save fills it");
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scenario s;
    said = 0;
    if (scenario_from_json(&s, data, size, "fuzz") != 0) {
        check(said > 0, "a refused text says why");
        return 0;
    }
    char *text = NULL;
    size_t text_len = 0;
    FILE *f = open_memstream(&text, &text_len);
    check(f != NULL, "a memory stream");
    scenario_write_json(f, &s);
    check(fclose(f) == 0, "the JSON is written");

    scenario again;
    said = 0;
    check(scenario_from_json(&again, (const uint8_t *)text, text_len, "round trip") == 0,
          "the JSON written back loads");
    size_t a_len, b_len;
    uint8_t *a = cbor_of(&s, &a_len), *b = cbor_of(&again, &b_len);
    check(a_len == b_len && memcmp(a, b, a_len) == 0, "JSON to scenario to JSON gives the same scenario");
    free(a);
    free(b);
    free(text);
    scenario_free(&s);
    scenario_free(&again);
    return 0;
}
