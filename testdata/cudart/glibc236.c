// Lets the test programs nvcc 12.4 builds in a Debian 13 chroot (glibc 2.41, gcc 13) run on
// Debian 12 (glibc 2.36): with _GNU_SOURCE, which g++ always defines, glibc 2.38's headers
// turn strtol and friends into the C23 versions __isoc23_strtol..., which older glibcs lack.
// These forward them to the C17 functions, which behave the same on the inputs the programs
// pass (C23 only adds binary "0b" prefixes).
extern long c17_strtol(const char *, char **, int) __asm__("strtol");
extern unsigned long c17_strtoul(const char *, char **, int) __asm__("strtoul");
extern long long c17_strtoll(const char *, char **, int) __asm__("strtoll");
extern unsigned long long c17_strtoull(const char *, char **, int) __asm__("strtoull");

long __isoc23_strtol(const char *s, char **end, int base) { return c17_strtol(s, end, base); }
unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return c17_strtoul(s, end, base); }
long long __isoc23_strtoll(const char *s, char **end, int base) { return c17_strtoll(s, end, base); }
unsigned long long __isoc23_strtoull(const char *s, char **end, int base) { return c17_strtoull(s, end, base); }
