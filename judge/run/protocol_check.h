/**
 * @file protocol_check.h
 * @brief Every runner line checked against runners/protocol.schema.json, which is compiled
 *        into the judge: the hello reply against `$defs/hello_reply`, every other answer
 *        against `$defs/response`. The protocol is data: a field PROTOCOL.md adds is enforced
 *        by changing the schema, and a line that breaks it is refused with one line naming
 *        the field. A JSON object with a key twice is refused too (runners/PROTOCOL.md P.3):
 *        this judge would read the first, a Python runner test the last.
 */
#ifndef SMCJ_PROTOCOL_CHECK_H
#define SMCJ_PROTOCOL_CHECK_H

#include <stddef.h>

#include "smct_json.h"

/** The text of runners/protocol.schema.json, as built (generated/protocol_schema_text.c). */
extern const unsigned char smcj_protocol_schema_text[];
extern const size_t smcj_protocol_schema_text_len;

/**
 * Check one runner line, `def` "hello_reply" or "response", parsed as `line`. Returns NULL
 * when it keeps to the protocol, else one line naming the first field that breaks it
 * ("`capabilities.decode[2]` is a number, not a string"), caller-freed. Fields the schema
 * does not know are appended to `unknown` (if not NULL) as "a, b.c", and are no error.
 */
char *smcj_protocol_fault(const smct_json_t *line, const char *def, smct_buf_t *unknown);

/** Free the compiled schema (at exit, so leak checkers see nothing left). */
void smcj_protocol_schema_free(void);

#endif /* SMCJ_PROTOCOL_CHECK_H */
