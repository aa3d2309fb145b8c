// glibc's malloc tuning (malloc_trim, mallopt), which Swift's Glibc module does not include.
#include <malloc.h>
