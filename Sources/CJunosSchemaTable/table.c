// The schema table's bytes, embedded by the compiler (C23 #embed, which the toolchain's clang
// reads in every C mode), aligned for word reads.
#include "CJunosSchemaTable.h"

#pragma clang diagnostic ignored "-Wc23-extensions"
_Alignas(16) static const unsigned char table[] = {
#embed "schema.jsc"
};

const unsigned char *junoscope_schema_table(size_t *count) {
  *count = sizeof table;
  return table;
}
