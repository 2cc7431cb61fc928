/**
 * No rc files: with stdin on a socket, bash would source ~/.bashrc (it takes the socket for an
 * rsh connection), and a user's rc can hang, print, or change the environment of every command.
 */
export const BASH_FLAGS = ['--norc', '--noprofile'] as const;
