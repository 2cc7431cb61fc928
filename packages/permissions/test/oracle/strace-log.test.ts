import { describe, expect, it } from 'vitest';
import { parseStraceLog } from './strace-log.js';

// Lines captured from `strace -f -qq -y` running bash in the oracle sandbox.
const CAPTURED = [
  '6     execve("/usr/bin/bash", ["bash", "-c", "mkdir d; cd d; echo hi > x"], 0x7ffdbb152140 /* 35 vars */) = 0',
  '6     openat(AT_FDCWD</tmp>, "/dev/tty", O_RDWR|O_NONBLOCK) = -1 ENXIO (No such device or address)',
  '6     clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7fc6062f9a10) = 7',
  '7     execve("/usr/bin/mkdir", ["mkdir", "d"], 0x55dccbdd68d0 /* 35 vars */) = 0',
  '7     mkdir("d", 0777)                  = 0',
  '6     --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=7, si_uid=0, si_status=0} ---',
  '6     chdir("/tmp/d")                   = 0',
  '6     openat(AT_FDCWD</tmp/d>, "x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4</tmp/d/x>',
  '6     openat(AT_FDCWD</tmp/d>, "q\\1\\377", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4</tmp/d/q\\1\\377>',
  '6     clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7fc6062f9a10) = 9',
  '9     execve("/usr/bin/cat", ["cat", "a\\tb"], 0x55dccbddbbc0 /* 35 vars */ <unfinished ...>',
  '6     renameat2(AT_FDCWD</tmp/d>, "y", AT_FDCWD</tmp/d>, "z", RENAME_NOREPLACE) = 0',
  '9     <... execve resumed>)             = 0',
  '9     symlinkat("x", AT_FDCWD</tmp/d>, "a\\tb>c") = 0',
  '6     openat(AT_FDCWD</tmp/d>, "README.md", O_RDONLY|O_CLOEXEC) = 3</tmp/d/README.md>',
  '6     clone3({flags=CLONE_VM|CLONE_FS|CLONE_THREAD|CLONE_SETTLS, exit_signal=0} => {parent_tid=[10]}, 88) = 10',
].join('\n');

describe('the strace log reader', () => {
  const events = parseStraceLog(CAPTURED, '/tmp');

  it('lists every exec with its argv, including one strace split over two lines', () => {
    const execs = events.filter((event) => event.kind === 'exec');
    expect(execs.map((event) => event.argv)).toEqual([
      ['bash', '-c', 'mkdir d; cd d; echo hi > x'],
      ['mkdir', 'd'],
      ['cat', 'a\tb'],
    ]);
  });

  it('keeps a resumed call at the place it started', () => {
    const order = events.map((event) => (event.kind === 'write' ? event.syscall : event.kind));
    expect(order.indexOf('exec', 2)).toBeLessThan(order.indexOf('renameat2'));
  });

  it('resolves written paths against the working directory and decodes escaped bytes', () => {
    const writes = events.filter((event) => event.kind === 'write').map((event) => [event.path, event.ok]);
    expect(writes).toEqual([
      ['/dev/tty', false],
      ['/tmp/d', true],
      ['/tmp/d/x', true],
      ['/tmp/d/q\u0001\ufffd', true],
      ['/tmp/d/y', true],
      ['/tmp/d/z', true],
      ['/tmp/d/a\tb>c', true],
    ]);
  });

  it('ignores opens without write intent and tells threads from processes', () => {
    expect(events.some((event) => event.kind === 'write' && event.path.endsWith('README.md'))).toBe(false);
    const spawns = events.filter((event) => event.kind === 'spawn');
    expect(spawns.map((event) => [event.child, event.thread])).toEqual([
      [7, false],
      [9, false],
      [10, true],
    ]);
  });

  it('lists opens for reading with where they landed, directories marked, O_PATH left out', () => {
    const log = [
      '4     execve("/usr/bin/cat", ["cat", "notes.md"], 0x7ffd /* 3 vars */) = 0',
      '4     openat(AT_FDCWD</w>, "notes.md", O_RDONLY) = 3</o/secret.txt>',
      '4     openat(AT_FDCWD</w>, "..", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 3</>',
      '4     openat(AT_FDCWD</w>, "src", O_RDONLY|O_PATH|O_CLOEXEC) = 3</w/src>',
      '4     openat(AT_FDCWD</w>, "gone", O_RDONLY) = -1 ENOENT (No such file or directory)',
    ].join('\n');
    const reads = parseStraceLog(log, '/w').filter((event) => event.kind === 'read');
    expect(reads).toEqual([
      { kind: 'read', pid: 4, path: '/w/notes.md', realPath: '/o/secret.txt', directory: false, ok: true },
      { kind: 'read', pid: 4, path: '/', directory: true, ok: true },
      { kind: 'read', pid: 4, path: '/w/gone', directory: false, ok: false },
    ]);
  });
});
