import { analyzeShellCommand } from './src/shell/analyze-shell-command.js';
const cmds = process.argv.slice(2).length ? process.argv.slice(2) : [
  'git status', 'git status --short', 'echo "a # b"', "echo 'it''s'", "cat <<'EOF'\nhello $x `id`\nEOF", 'ls -la src | wc -l',
  'npm run test -- --reporter=dot', 'pnpm -r build', 'git log --oneline -n 5 HEAD~3..HEAD', 'FOO=1 git status', 'X=1', 'A=1 B=2',
  'git status 2>&1 | head -5', 'find . -name "*.ts" -not -path "./node_modules/*"', 'grep -rn "TODO" src --include=*.ts',
  'echo a\\ #b; ls', 'echo a\v#b; touch x', "cat <<E\"OF\"\nx\nEOF\ntouch y\nE\"OF\"", 'echo $HOME', "echo $'a\\\\'; touch x",
  'git status # c\ntouch x', 'cd src && ls', 'echo hi >out.txt', 'echo x 2>/dev/null', 'ls *.ts', 'find . -exec cat {} \\;', 'echo "a\\"b"',
  'git log --format="%H %s"', 'head -n 20 README.md', "cat <<'EOF' | wc -l\na\nb\nEOF", 'echo a;#b', 'echo a#b', 'X=1 Y="a b" env', 'echo "é"',
];
for (const c of cmds) {
  const a = await analyzeShellCommand(c);
  console.log(JSON.stringify(c).padEnd(50), a.unproven.length ? 'UNPROVEN ' + JSON.stringify(a.unproven) : 'proven', a.unsafe.length ? 'unsafe:' + a.unsafe.map((u) => u.reason).join('|') : '', JSON.stringify(a.commands.map((x) => x.argv)));
}
