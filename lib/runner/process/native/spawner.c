/* gatehouse-spawner: starts commands for the Gatehouse server with posix_spawn (vfork-fast, whatever
 * the server's size), each in its own session and process group, and reports how they exit.
 *
 * Requests on stdin, each a list of NUL-terminated fields:
 *   "S" id cwd outPath errPath stdinPath user file argc arg... envc NAME=value...
 * (outPath is opened write-only as stdout; errPath likewise as stderr, or empty: stderr = stdout;
 * stdinPath empty: /dev/null; user "uid:gid" runs the command as that user, empty: as this process.)
 * Answers on stdout, one line each:  "P id pid pipeBytes" · "E id message" · "X id code signal"
 * (pipeBytes: the capacity of the stdout pipe, 0 when stdout is not a pipe; code -1 when a signal
 * ended it; signal 0 when none). It exits when stdin closes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FIELDS 4096
#define MAX_CHILDREN 4096

static char *buf;
static size_t len, cap;
static struct { pid_t pid; long id; } children[MAX_CHILDREN];

static void fail(long id, const char *message) { dprintf(1, "E %ld %s\n", id, message); }

/* Asks for a 1 MB pipe (the default is 64 KB: a command printing fast would block far more often on
 * its output) and returns the capacity it has; 0 for what is not a pipe. */
static long widen_pipe(int fd) {
  fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  long size = fcntl(fd, F_GETPIPE_SZ);
  return size > 0 ? size : 0;
}

static void remember(pid_t pid, long id) {
  for (int i = 0; i < MAX_CHILDREN; i++)
    if (children[i].pid == 0) { children[i].pid = pid; children[i].id = id; return; }
}

static void reap(void) {
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    for (int i = 0; i < MAX_CHILDREN; i++) {
      if (children[i].pid != pid) continue;
      long code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      long sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
      dprintf(1, "X %ld %ld %ld\n", children[i].id, code, sig);
      children[i].pid = 0;
      break;
    }
  }
}

/* Starts a command as another user (fork, drop to uid:gid, exec). The files are opened before the
 * privileges are dropped, so the command can write its output without access to where it is kept. */
static void start_as(long id, char **f, char **argv, char **envp, int envc) {
  unsigned uid = 0, gid = 0;
  if (sscanf(f[6], "%u:%u", &uid, &gid) != 2 || uid == 0) { fail(id, "bad user"); return; }
  int in = open(f[5][0] ? f[5] : "/dev/null", O_RDONLY | O_CLOEXEC);
  int out = open(f[3], O_WRONLY | O_CLOEXEC);
  int err = f[4][0] ? open(f[4], O_WRONLY | O_CLOEXEC) : -1;
  long pipe_bytes = out >= 0 ? widen_pipe(out) : 0;
  if (in < 0 || out < 0 || (f[4][0] && err < 0)) {
    fail(id, strerror(errno));
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    if (err >= 0) close(err);
    return;
  }
  pid_t pid = fork();
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
    setsid();
    dup2(in, 0);
    dup2(out, 1);
    dup2(err >= 0 ? err : out, 2);
    if (setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0) { dprintf(2, "[gatehouse] could not switch to user %u: %s\n", uid, strerror(errno)); _exit(126); }
    if (chdir(f[2]) != 0) { dprintf(2, "[gatehouse] could not enter %s: %s\n", f[2], strerror(errno)); _exit(126); }
    for (int i = 0; i < envc; i++) if (strncmp(envp[i], "PATH=", 5) == 0) setenv("PATH", envp[i] + 5, 1);
    execvpe(f[7], argv, envp);
    dprintf(2, "[gatehouse] could not start %s: %s\n", f[7], strerror(errno));
    _exit(127);
  }
  close(in);
  close(out);
  if (err >= 0) close(err);
  if (pid < 0) { fail(id, strerror(errno)); return; }
  remember(pid, id);
  dprintf(1, "P %ld %ld %ld\n", id, (long)pid, pipe_bytes);
}

/* Starts one request given as fields; returns after answering P or E. */
static void start(char **f, int n) {
  if (n < 9) return;
  long id = atol(f[1]);
  int argc = atoi(f[8]);
  if (argc < 1 || 9 + argc >= n) { fail(id, "malformed request"); return; }
  int envc = atoi(f[9 + argc]);
  if (10 + argc + envc > n) { fail(id, "malformed request"); return; }
  char **argv = calloc(argc + 1, sizeof(char *));
  char **envp = calloc(envc + 1, sizeof(char *));
  for (int i = 0; i < argc; i++) argv[i] = f[9 + i];
  for (int i = 0; i < envc; i++) envp[i] = f[10 + argc + i];
  if (f[6][0]) {
    start_as(id, f, argv, envp, envc);
    free(argv);
    free(envp);
    return;
  }

  long pipe_bytes = 0;
  int probe = open(f[3], O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (probe >= 0) {
    pipe_bytes = widen_pipe(probe);
    close(probe);
  }

  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&at);
  posix_spawn_file_actions_addopen(&fa, 0, f[5][0] ? f[5] : "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, f[3], O_WRONLY, 0);
  if (f[4][0]) posix_spawn_file_actions_addopen(&fa, 2, f[4], O_WRONLY, 0);
  else posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addchdir_np(&fa, f[2]);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &all);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  /* PATH lookup uses the command's own PATH, as a shell would. */
  char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
  for (int i = 0; i < envc; i++) if (strncmp(envp[i], "PATH=", 5) == 0) setenv("PATH", envp[i] + 5, 1);
  pid_t pid;
  int err = posix_spawnp(&pid, f[7], &fa, &at, argv, envp);
  if (saved) { setenv("PATH", saved, 1); free(saved); }

  if (err == 0) { remember(pid, id); dprintf(1, "P %ld %ld %ld\n", id, (long)pid, pipe_bytes); }
  else fail(id, strerror(err));
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  free(argv);
  free(envp);
}

/* Handles every complete request in the buffer. */
static void drain(void) {
  for (;;) {
    char *fields[MAX_FIELDS];
    int n = 0;
    size_t pos = 0;
    int complete = 0;
    while (pos < len && n < MAX_FIELDS) {
      char *end = memchr(buf + pos, 0, len - pos);
      if (!end) break;
      fields[n++] = buf + pos;
      pos = (size_t)(end - buf) + 1;
      if (n >= 9) {
        int argc = atoi(fields[8]);
        if (n >= 10 + argc) {
          int envc = atoi(fields[9 + argc]);
          if (n == 10 + argc + envc) { complete = 1; break; }
        }
      }
    }
    if (!complete) {
      if (n >= MAX_FIELDS) { len = 0; }
      return;
    }
    start(fields, n);
    memmove(buf, buf + pos, len - pos);
    len -= pos;
  }
}

int main(void) {
  cap = 1 << 20;
  buf = malloc(cap);
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, NULL);
  int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
  signal(SIGPIPE, SIG_IGN);
  struct pollfd fds[2] = {{0, POLLIN, 0}, {sfd, POLLIN, 0}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) { if (errno == EINTR) continue; return 1; }
    if (fds[1].revents & POLLIN) {
      struct signalfd_siginfo info;
      while (read(sfd, &info, sizeof info) == sizeof info) {}
      reap();
    }
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      if (len == cap) { cap *= 2; buf = realloc(buf, cap); }
      ssize_t got = read(0, buf + len, cap - len);
      if (got <= 0) return 0;
      len += (size_t)got;
      drain();
    }
    reap();
  }
}
