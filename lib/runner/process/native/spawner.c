/* gatehouse-spawner: starts every command for the Gatehouse server, each under a small per-command shim,
 * and reports how they exit. Built at install time (scripts/build-native.mjs); there is no other way
 * Gatehouse starts a process.
 *
 * Requests on stdin, each a list of NUL-terminated fields:
 *   "S" id cwd outPath errPath stdinPath user file argc arg... envc NAME=value...
 *       (outPath is opened write-only as stdout; errPath likewise as stderr, or empty: stderr = stdout;
 *       stdinPath empty: /dev/null; user "uid:gid" runs the command as that user, empty: as this process)
 *   "K" id signal       send the signal to the command's process group while its main process lives
 * Answers on stdout, one line each:  "P id pid pipeBytes" · "E id message" · "X id code signal"
 * (pid: the command's, which is also its process group and session id; pipeBytes: the capacity of the
 * stdout pipe, 0 when stdout is not a pipe; code -1 when a signal ended it; signal 0 when none).
 *
 * The shim (a fork of this process, so a few hundred KB) is a child subreaper (PR_SET_CHILD_SUBREAPER):
 * whatever the command starts stays its descendant however it detaches (setsid, double fork, nohup,
 * disown, closed descriptors), since an orphan is re-parented to the nearest subreaper. When the main
 * process exits, the shim SIGKILLs the command's group, then every descendant left, and reaps them until
 * it has no child at all; only then does it answer X. The command gets no descriptor but 0, 1 and 2.
 * When stdin closes (the server stopped) every command is ended the same way before this process exits;
 * if this process is killed, the shims notice (PR_SET_PDEATHSIG) and do the same.
 *
 * `gatehouse-spawner --inside DIR`: the same spawner, started by bwrap as an attempt's shared sandbox
 * (lib/runner/sandbox/attempt-sandbox.ts), its requests and answers on FIFOs. It is not dumpable, and each
 * command gets a user, mount and IPC namespace and a session keyring of its own (isolate): fresh /tmp,
 * /var/tmp and /dev/shm, /dev read-only, DIR (the output pipes) covered.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FIELDS 4096
#define MAX_CHILDREN 4096
#define MAX_SWEEP 4096
/* The spawner asks a shim to signal its command with this (real-time: each request is queued). */
#define CONTROL_SIG (SIGRTMIN + 2)

static char *buf;
static size_t len, cap;
static struct { pid_t pid; long id; } shims[MAX_CHILDREN];
static pid_t spawner_pid;
/* Inside an attempt's sandbox (`--inside DIR`): the folder of the commands' output pipes, hidden from each
 * command; NULL for the platform's own spawner. */
static const char *inside_hidden;
/* What lay in the sandbox's /tmp and /var/tmp when it started: what bwrap bound there (a data dir in /tmp,
 * a mount of the Work's), kept in each command's fresh /tmp. */
#define MAX_KEPT 64
static char *kept[MAX_KEPT];
static int kept_count;
/* Whether the sandbox's /run is its own (bwrap's --tmpfs /run when the network is off: writable, one for
 * every command) rather than the host's, read-only: then each command gets a fresh one too. */
static int fresh_run;

static void note_kept(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && kept_count < MAX_KEPT) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    size_t n = strlen(dir) + strlen(e->d_name) + 2;
    kept[kept_count] = malloc(n);
    snprintf(kept[kept_count++], n, "%s/%s", dir, e->d_name);
  }
  closedir(d);
}

/* ---- shared helpers ---------------------------------------------------------------------------- */

/* Closes every descriptor from `from` up except `keep` (-1: none): close_range where the kernel has it
 * (Linux 5.9), else each descriptor listed in /proc/self/fd. */
static void close_from(int from, int keep) {
  int ok = keep < from ? close_range(from, ~0U, 0) == 0
                       : (keep == from || close_range(from, keep - 1, 0) == 0) && close_range(keep + 1, ~0U, 0) == 0;
  if (ok) return;
  DIR *d = opendir("/proc/self/fd");
  if (!d) {
    for (int fd = from; fd < 65536; fd++) if (fd != keep) close(fd);
    return;
  }
  int own = dirfd(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    int fd = atoi(e->d_name);
    if (fd >= from && fd != keep && fd != own) close(fd);
  }
  closedir(d);
}

/* Puts fd at `to` without the close-on-exec flag (dup2 onto itself would keep the flag). */
static void move_to(int fd, int to) {
  if (fd == to) fcntl(fd, F_SETFD, 0);
  else dup2(fd, to);
}

/* Asks for a 1 MB pipe (the default is 64 KB: a command printing fast would block far more often on
 * its output) and returns the capacity it has; 0 for what is not a pipe. */
static long widen_pipe(int fd) {
  fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  long size = fcntl(fd, F_GETPIPE_SZ);
  return size > 0 ? size : 0;
}

/* The parent pid in /proc/<pid>/stat ("pid (comm) state ppid ..."; comm may hold spaces and ')'). */
static pid_t parent_of(const char *pid) {
  char path[64], stat[512];
  snprintf(path, sizeof path, "/proc/%s/stat", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, stat, sizeof stat - 1);
  close(fd);
  if (n <= 0) return -1;
  stat[n] = 0;
  char *end = strrchr(stat, ')');
  if (!end || end[1] == 0 || end[2] == 0) return -1;
  return (pid_t)atol(end + 4);
}

/* SIGKILLs this process's children for which skip() is false; returns how many (their pids in out).
 * Safe from pid reuse: a child's pid stays its own until this process reaps it. */
static int kill_children(pid_t *out, int max, int (*skip)(pid_t)) {
  DIR *d = opendir("/proc");
  if (!d) return -1;
  pid_t self = getpid();
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && n < max) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    if (parent_of(e->d_name) != self) continue;
    pid_t pid = (pid_t)atol(e->d_name);
    if (pid <= 1 || (skip && skip(pid))) continue;
    kill(pid, SIGKILL);
    out[n++] = pid;
  }
  closedir(d);
  return n;
}

/* ---- the shim: one per command ------------------------------------------------------------------- */

static pid_t command_pid;
static int command_reaped;

/* The one place a process group is signalled: the command's own group, whose id is its main process's
 * pid, while that process is not yet reaped (so the id cannot have been reused) — never 0, 1, a negative
 * id or this process's own group. */
static int signal_group(pid_t pgid, int sig) {
  if (pgid <= 1 || pgid != command_pid || command_reaped || pgid == getpgrp() || sig < 1 || sig >= NSIG) {
    dprintf(2, "[gatehouse-spawner] refused to signal process group %ld with %d\n", (long)pgid, sig);
    return -1;
  }
  return kill(-pgid, sig);
}

/* Kills and reaps every descendant left, until this process has no child at all. Orphans come here
 * (subreaper), so once none is left, nothing the command started is alive. */
static void sweep(void) {
  static pid_t killed[MAX_SWEEP];
  for (;;) {
    pid_t r;
    while ((r = waitpid(-1, NULL, WNOHANG)) > 0) {}
    if (r < 0 && errno == ECHILD) return;
    if (r < 0 && errno == EINTR) continue;
    int n = kill_children(killed, MAX_SWEEP, NULL);
    if (n < 0) {
      dprintf(2, "[gatehouse-spawner] cannot list processes (/proc): left-over processes of a command stay\n");
      return;
    }
    /* Reap what was killed (its own children come here meanwhile and are found on the next round). */
    for (int i = 0; i < n; i++) while (waitpid(killed[i], NULL, 0) < 0 && errno == EINTR) {}
    if (n == 0) waitpid(-1, NULL, 0); /* a child that exited between the two looks */
  }
}

struct start_failure { int stage; int err; };
enum { STAGE_USER = 1, STAGE_CWD = 2, STAGE_EXEC = 3, STAGE_ISOLATE = 4 };

static int write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = write(fd, text, strlen(text));
  int saved = errno;
  close(fd);
  errno = saved;
  return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Inside an attempt's sandbox, each command gets a world of its own on top of the sandbox's: a user
 * namespace mapping only its own uid and gid (so it holds no capability outside it, and none at all once
 * it execs as that non-root uid); a mount namespace in which /tmp, /var/tmp, /dev/shm (and /run when the
 * sandbox has one of its own) are fresh and empty, /dev is read-only (bwrap's --dev is a tmpfs of the
 * sandbox's user: one check could otherwise point /dev/fd or /dev/stdout elsewhere for the next) and the
 * output pipes' folder is covered; an IPC namespace (SysV queues, semaphores and shared memory, POSIX
 * queues) and a session keyring of its own. What one check leaves there the next never sees. */
static int isolate(void) {
  char map[64];
  uid_t uid = getuid();
  gid_t gid = getgid();
  /* Made dumpable (it is about to exec, which would do so anyway) so its own /proc files are its to write. */
  prctl(PR_SET_DUMPABLE, 1);
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWIPC) != 0) return -1;
  /* KEYCTL_JOIN_SESSION_KEYRING with no name: a new anonymous session keyring, gone with the command. Not
   * a reason to refuse the command when it fails: the key quota (kernel.keys.maxkeys, 200) is one for all
   * of the user's processes, so a command of another sandbox holding it would make this one an error. The
   * command then shares the sandbox's session keyring, as the checks share their HOME. */
  syscall(SYS_keyctl, 1, NULL);
  snprintf(map, sizeof map, "%u %u 1\n", uid, uid);
  if (write_file("/proc/self/uid_map", map) != 0) return -1;
  if (write_file("/proc/self/setgroups", "deny") != 0) return -1;
  snprintf(map, sizeof map, "%u %u 1\n", gid, gid);
  if (write_file("/proc/self/gid_map", map) != 0) return -1;
  if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
  const unsigned long flags = MS_NOSUID | MS_NODEV;
  /* The pipes' folder first (it may lie in what is kept below). */
  if (mount("tmpfs", inside_hidden, "tmpfs", flags | MS_NOEXEC | MS_RDONLY, "mode=0") != 0) return -1;
  /* Held by descriptor across the fresh mounts, then bound back at the same place (with what is mounted
   * under them: a read-only bind stays read-only). */
  int held[MAX_KEPT];
  for (int i = 0; i < kept_count; i++) held[i] = open(kept[i], O_PATH | O_CLOEXEC);
  if (mount("tmpfs", "/tmp", "tmpfs", flags, "mode=1777") != 0) return -1;
  if (access("/var/tmp", F_OK) == 0 && mount("tmpfs", "/var/tmp", "tmpfs", flags, "mode=1777") != 0) return -1;
  if (fresh_run && mount("tmpfs", "/run", "tmpfs", flags, "mode=0755") != 0) return -1;
  /* bwrap's /dev keeps its flags (nosuid, nodev: they are locked) and becomes read-only; its devices are
   * mounts of their own and stay writable. */
  if (mount(NULL, "/dev", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | flags, NULL) != 0) return -1;
  if (access("/dev/shm", F_OK) == 0 && mount("tmpfs", "/dev/shm", "tmpfs", flags, "mode=1777") != 0) return -1;
  for (int i = 0; i < kept_count; i++) {
    if (held[i] < 0) continue;
    struct stat st;
    char source[64];
    if (fstat(held[i], &st) != 0) return -1;
    if (S_ISDIR(st.st_mode) ? mkdir(kept[i], 0755) != 0 : mknod(kept[i], S_IFREG | 0644, 0) != 0) return -1;
    snprintf(source, sizeof source, "/proc/self/fd/%d", held[i]);
    if (mount(source, kept[i], NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
    close(held[i]);
  }
  return 0;
}

static void shim(long id, char **f, char **argv, char **envp, int envc) {
  /* The spawner's end (if it dies, this shim ends the command), before anything else. */
  prctl(PR_SET_PDEATHSIG, SIGUSR2);
  if (getppid() != spawner_pid) _exit(0);
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  sigset_t wait_for;
  sigemptyset(&wait_for);
  sigaddset(&wait_for, SIGCHLD);
  sigaddset(&wait_for, CONTROL_SIG);
  sigaddset(&wait_for, SIGUSR2);
  sigprocmask(SIG_BLOCK, &wait_for, NULL);
  /* Not the spawner's requests: descriptor 0 becomes /dev/null; 1 (answers) and 2 stay. */
  int nul = open("/dev/null", O_RDONLY);
  if (nul >= 0) { move_to(nul, 0); if (nul != 0) close(nul); }
  close_from(3, -1);

  unsigned uid = 0, gid = 0;
  int as_user = f[6][0] != 0;
  if (as_user && (sscanf(f[6], "%u:%u", &uid, &gid) != 2 || uid == 0)) {
    dprintf(1, "E %ld bad user\n", id);
    _exit(0);
  }
  /* The files are opened here, before the command drops privileges, so it can write its output without
   * access to where it is kept. */
  int in = open(f[5][0] ? f[5] : "/dev/null", O_RDONLY | O_CLOEXEC);
  int out = open(f[3], O_WRONLY | O_CLOEXEC);
  int err = f[4][0] ? open(f[4], O_WRONLY | O_CLOEXEC) : -1;
  if (in < 0 || out < 0 || (f[4][0] && err < 0)) {
    dprintf(1, "E %ld %s\n", id, strerror(errno));
    _exit(0);
  }
  long pipe_bytes = widen_pipe(out);
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    dprintf(1, "E %ld %s\n", id, strerror(errno));
    _exit(0);
  }

  pid_t pid = fork();
  if (pid == 0) {
    struct start_failure failure = {0, 0};
    sigset_t none;
    sigemptyset(&none);
    for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setsid();
    move_to(in, 0);
    move_to(out, 1);
    move_to(err >= 0 ? err : out, 2);
    /* Nothing but 0, 1, 2 reaches the command (the report pipe closes on exec). */
    close_from(3, report[1]);
    if (as_user && (setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0))
      failure = (struct start_failure){STAGE_USER, errno};
    else if (inside_hidden && isolate() != 0)
      failure = (struct start_failure){STAGE_ISOLATE, errno};
    else if (chdir(f[2]) != 0)
      failure = (struct start_failure){STAGE_CWD, errno};
    else {
      /* PATH lookup uses the command's own PATH, as a shell would. */
      for (int i = 0; i < envc; i++) if (strncmp(envp[i], "PATH=", 5) == 0) setenv("PATH", envp[i] + 5, 1);
      execvpe(f[7], argv, envp);
      failure = (struct start_failure){STAGE_EXEC, errno};
    }
    if (write(report[1], &failure, sizeof failure) < 0) {}
    _exit(127);
  }
  int fork_errno = errno;
  close(in);
  close(out);
  if (err >= 0) close(err);
  close(report[1]);
  if (pid < 0) {
    dprintf(1, "E %ld %s\n", id, strerror(fork_errno));
    _exit(0);
  }
  command_pid = pid;
  struct start_failure failure;
  ssize_t got;
  while ((got = read(report[0], &failure, sizeof failure)) < 0 && errno == EINTR) {}
  close(report[0]);
  if (got == (ssize_t)sizeof failure) {
    waitpid(pid, NULL, 0);
    command_reaped = 1;
    sweep();
    if (failure.stage == STAGE_USER)
      dprintf(1, "E %ld could not switch to user %u: %s\n", id, uid, strerror(failure.err));
    else if (failure.stage == STAGE_ISOLATE)
      dprintf(1, "E %ld could not isolate the command in the sandbox: %s\n", id, strerror(failure.err));
    else if (failure.stage == STAGE_CWD)
      dprintf(1, "E %ld could not enter %s: %s\n", id, f[2], strerror(failure.err));
    else
      dprintf(1, "E %ld %s\n", id, strerror(failure.err));
    _exit(0);
  }
  dprintf(1, "P %ld %ld %ld\n", id, (long)pid, pipe_bytes);

  /* Until the main process exits: forward the spawner's signals to the group, reap orphans that end. */
  for (;;) {
    siginfo_t si;
    int s = sigwaitinfo(&wait_for, &si);
    if (s == CONTROL_SIG && si.si_pid == spawner_pid) signal_group(pid, si.si_value.sival_int);
    else if (s == SIGUSR2) signal_group(pid, SIGKILL); /* the spawner is gone: nobody waits for this command */
    int main_exited = 0;
    for (;;) {
      siginfo_t w;
      w.si_pid = 0;
      if (waitid(P_ALL, 0, &w, WEXITED | WNOHANG | WNOWAIT) != 0 || w.si_pid == 0) break;
      if (w.si_pid == pid) { main_exited = 1; break; }
      waitpid(w.si_pid, NULL, 0);
    }
    if (main_exited) break;
  }
  /* The group first (its leader is a zombie not yet reaped, so the id is still the command's)... */
  signal_group(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  command_reaped = 1;
  /* ...then whatever left it. */
  sweep();
  long code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  long sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  dprintf(1, "X %ld %ld %ld\n", id, code, sig);
  _exit(0);
}

/* ---- the spawner ------------------------------------------------------------------------------------- */

static int limits_changed(void);
static void finish(void);

static int slot_of(pid_t pid) {
  for (int i = 0; i < MAX_CHILDREN; i++) if (shims[i].pid == pid) return i;
  return -1;
}

static int is_shim(pid_t pid) { return pid > 0 && slot_of(pid) >= 0; }

/* A child that is not a shim is an orphan of a shim that died (the spawner is a subreaper too). */
static void kill_orphans(void) {
  static pid_t killed[MAX_SWEEP];
  kill_children(killed, MAX_SWEEP, is_shim);
}

static void reap(void) {
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    int i = slot_of(pid);
    if (i < 0) { kill_orphans(); continue; }
    /* A shim answers for itself and exits 0; one that did not was killed before it could. */
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      dprintf(1, "X %ld -1 %d\n", shims[i].id, WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL);
      kill_orphans();
    }
    shims[i].pid = 0;
    /* The command just ended may have lowered this process's limits: the sandbox ends here, so the next
     * command starts in a new one (the one already sent, if any, is refused by start). */
    if (inside_hidden && limits_changed()) {
      finish();
      _exit(0);
    }
  }
}

/* This process's resource limits when it started inside a sandbox. A command can lower them (prlimit needs
 * only the same uid, and a hard limit lowered cannot be raised again), and every later command would
 * inherit them: a sandbox whose limits changed starts nothing more. */
static struct rlimit limits_at_start[RLIM_NLIMITS];

static void note_limits(void) {
  for (int r = 0; r < RLIM_NLIMITS; r++) getrlimit(r, &limits_at_start[r]);
}

static int limits_changed(void) {
  for (int r = 0; r < RLIM_NLIMITS; r++) {
    struct rlimit now;
    if (getrlimit(r, &now) == 0 &&
        (now.rlim_cur != limits_at_start[r].rlim_cur || now.rlim_max != limits_at_start[r].rlim_max))
      return 1;
  }
  return 0;
}

/* Starts one request given as fields. */
static void start(char **f, int n) {
  long id = atol(f[1]);
  if (inside_hidden && limits_changed()) {
    /* The TypeScript side (SpawnerProtocol) reads ": the sandbox ends" at the end as "closed now". */
    dprintf(1, "E %ld a command changed the sandbox's resource limits: the sandbox ends\n", id);
    finish();
    _exit(0);
  }
  int argc = atoi(f[8]);
  if (argc < 1 || 9 + argc >= n) { dprintf(1, "E %ld malformed request\n", id); return; }
  int envc = atoi(f[9 + argc]);
  if (10 + argc + envc > n) { dprintf(1, "E %ld malformed request\n", id); return; }
  int slot = slot_of(0);
  if (slot < 0) { dprintf(1, "E %ld too many commands at once\n", id); return; }
  char **argv = calloc(argc + 1, sizeof(char *));
  char **envp = calloc(envc + 1, sizeof(char *));
  for (int i = 0; i < argc; i++) argv[i] = f[9 + i];
  for (int i = 0; i < envc; i++) envp[i] = f[10 + argc + i];
  pid_t pid = fork();
  if (pid == 0) shim(id, f, argv, envp, envc);
  if (pid < 0) dprintf(1, "E %ld %s\n", id, strerror(errno));
  else { shims[slot].pid = pid; shims[slot].id = id; }
  free(argv);
  free(envp);
}

static void request_signal(long id, int sig) {
  for (int i = 0; i < MAX_CHILDREN; i++) {
    if (shims[i].pid == 0 || shims[i].id != id) continue;
    /* The shim is this process's child, not yet reaped: the pid is surely it. */
    sigqueue(shims[i].pid, CONTROL_SIG, (union sigval){.sival_int = sig});
    return;
  }
}

/* The fields a request needs in all, or 0 while too few have arrived to tell. */
static int request_size(char **fields, int n) {
  if (n >= 1 && strcmp(fields[0], "K") == 0) return n >= 3 ? 3 : 0;
  if (n < 9) return 0;
  int argc = atoi(fields[8]);
  if (argc < 0 || n < 10 + argc) return 0;
  int envc = atoi(fields[9 + argc]);
  return envc < 0 ? n : 10 + argc + envc;
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
      int size = request_size(fields, n);
      if (size > 0 && n >= size) { complete = 1; break; }
    }
    if (!complete) {
      if (n >= MAX_FIELDS) { len = 0; }
      return;
    }
    if (strcmp(fields[0], "K") == 0) request_signal(atol(fields[1]), atoi(fields[2]));
    else if (strcmp(fields[0], "S") == 0) start(fields, n);
    memmove(buf, buf + pos, len - pos);
    len -= pos;
  }
}

/* stdin closed: the server is gone. End every command (each shim kills and reaps its own), then exit. */
static void finish(void) {
  for (int i = 0; i < MAX_CHILDREN; i++)
    if (shims[i].pid) sigqueue(shims[i].pid, CONTROL_SIG, (union sigval){.sival_int = SIGKILL});
  for (;;) {
    /* Before each wait: an orphan (of a shim that died) would otherwise keep this wait going. */
    kill_orphans();
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) return;
    int i = slot_of(pid);
    if (i >= 0) shims[i].pid = 0;
  }
}

/* ---- the sandbox waiter: `gatehouse-spawner --sandbox-wait bwrap ARGS...` ---------------------------------
 * A sandboxed command's main process. bwrap's outer process dies at the first SIGTERM its group gets, and
 * the shim would then SIGKILL the group at once: the command inside would lose the grace a timeout or a
 * cancel gives it (SIGTERM, then SIGKILL after killGraceMs). This waiter stays in the group, survives
 * SIGTERM/SIGINT/SIGHUP (handlers, reset to the default in bwrap by exec) and is a subreaper, so bwrap's
 * init, orphaned when bwrap dies, becomes its child: after a SIGTERM it waits for the init (which exits
 * with the command's status once the command is done); when bwrap exits by itself it ends the init (and
 * so everything the command left in its namespace) and exits with bwrap's status. SIGKILL still ends it,
 * and the shim's sweep the rest. */
static void ignore_signal(int sig) { (void)sig; }

static int sandbox_wait(char **argv) {
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = ignore_signal;
  int survived[] = {SIGTERM, SIGINT, SIGHUP};
  for (size_t i = 0; i < sizeof survived / sizeof survived[0]; i++) sigaction(survived[i], &sa, NULL);
  pid_t child = fork();
  if (child < 0) return 127;
  if (child == 0) {
    execvp(argv[0], argv);
    dprintf(2, "[gatehouse-spawner] could not start %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  static pid_t killed[MAX_SWEEP];
  int last = 0, bwrap_exited = 0;
  for (;;) {
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) break;
    if (bwrap_exited) continue;
    last = status;
    /* bwrap exited by itself: the command's main process has (bwrap reports its status the moment it
     * does). Its init may still wait for what the command left: ending the init ends the whole namespace. */
    if (pid == child && WIFEXITED(status)) {
      bwrap_exited = 1;
      kill_children(killed, MAX_SWEEP, NULL);
    }
  }
  if (WIFSIGNALED(last)) {
    signal(WTERMSIG(last), SIG_DFL);
    kill(getpid(), WTERMSIG(last));
  }
  return WIFEXITED(last) ? WEXITSTATUS(last) : 128 + (WIFSIGNALED(last) ? WTERMSIG(last) : 0);
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "--sandbox-wait") == 0) return sandbox_wait(argv + 2);
  /* The spawner of one attempt's sandbox, started by bwrap: not dumpable, so a command of the same uid can
   * neither trace it or its shims nor open their descriptors (the answers) through /proc. */
  if (argc > 2 && strcmp(argv[1], "--inside") == 0) {
    inside_hidden = argv[2];
    prctl(PR_SET_DUMPABLE, 0);
    note_limits();
    note_kept("/tmp");
    note_kept("/var/tmp");
    fresh_run = access("/run", W_OK) == 0;
    if (fresh_run) note_kept("/run");
  }
  /* Nothing the server was started with (a pipe at fd 251 was seen) reaches a command. */
  close_from(3, -1);
  spawner_pid = getpid();
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  cap = 1 << 20;
  buf = malloc(cap);
  sigset_t chld, blocked;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  /* Blocked here so a shim has them blocked from its first instruction (they are for the shims). */
  blocked = chld;
  sigaddset(&blocked, CONTROL_SIG);
  sigaddset(&blocked, SIGUSR2);
  sigprocmask(SIG_BLOCK, &blocked, NULL);
  /* CONTROL_SIG is for the shims; one sent here (a command can: same uid) is taken and dropped, or queued
   * by the thousand it would fill the user's RLIMIT_SIGPENDING, and no sigqueue to a shim would get through. */
  sigset_t drained = chld;
  sigaddset(&drained, CONTROL_SIG);
  int sfd = signalfd(-1, &drained, SFD_CLOEXEC | SFD_NONBLOCK);
  signal(SIGPIPE, SIG_IGN);
  /* Ignored SIGCHLD would reap children on its own, and the shims need to wait for theirs. */
  signal(SIGCHLD, SIG_DFL);
  struct pollfd fds[2] = {{0, POLLIN, 0}, {sfd, POLLIN, 0}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return 1;
    }
    if (fds[1].revents & POLLIN) {
      struct signalfd_siginfo info;
      while (read(sfd, &info, sizeof info) == sizeof info) {}
      reap();
    }
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      if (len == cap) { cap *= 2; buf = realloc(buf, cap); }
      ssize_t got = read(0, buf + len, cap - len);
      if (got <= 0) { finish(); return 0; }
      len += (size_t)got;
      drain();
    }
    reap();
  }
}
