// The compiled schema table (Sources/CJunosSchemaTable/schema.jsc, written by
// junoscope-schemagen), linked into the binary as it is: read in place, never decoded.
#ifndef CJUNOSSCHEMATABLE_H
#define CJUNOSSCHEMATABLE_H

#include <stddef.h>

/// The table's first byte; `*count` is set to its size in bytes.
const unsigned char *junoscope_schema_table(size_t *count);

#endif
