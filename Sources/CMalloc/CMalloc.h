// glibc's <malloc.h> (mallopt and its parameters), which Swift's Glibc module does not include.
#include <malloc.h>
