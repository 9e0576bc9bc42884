/**
 * Functions of the C standard library and POSIX that C code calls by name. A project may
 * define a macro of the same name (curl's `#define fprintf curlx_mfprintf` in lib/curlx.h, an
 * example's `#define close closesocket`): `explain` does not send such a call there.
 *
 * @module
 */

/** C library and POSIX function names. */
export const C_LIBRARY: ReadonlySet<string> = new Set(
  [
    // stdio
    "printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf scanf fscanf sscanf",
    "fopen fdopen freopen fclose fflush fread fwrite fgets fputs puts putc putchar fputc fgetc",
    "getc getchar ungetc fseek ftell rewind fileno feof ferror clearerr perror remove rename",
    "tmpfile setvbuf setbuf popen pclose",
    // stdlib
    "malloc calloc realloc free abort exit _exit atexit atoi atol atoll strtol strtoul strtoll",
    "strtoull strtod strtof getenv setenv unsetenv qsort bsearch abs labs rand srand system",
    // string, ctype
    "memcpy memmove memset memcmp memchr strlen strcpy strncpy strcat strncat strcmp strncmp",
    "strchr strrchr strstr strdup strndup strtok strtok_r strerror strspn strcspn strpbrk",
    "strcasecmp strncasecmp isalpha isdigit isspace isupper islower isalnum isxdigit isprint",
    "toupper tolower",
    // POSIX
    "open close read write lseek unlink access getpid fork execv execvp pipe dup dup2 sleep",
    "usleep ftruncate fsync stat fstat lstat mkdir rmdir chdir getcwd isatty select poll",
    "socket connect bind listen accept send recv sendto recvfrom setsockopt getsockopt",
    "shutdown getaddrinfo freeaddrinfo fcntl ioctl kill signal sigaction time gettimeofday",
    "clock_gettime localtime gmtime strftime mktime pthread_create pthread_join",
    "pthread_mutex_lock pthread_mutex_unlock",
  ].join(" ").split(" "),
);
