const SECRET_PATTERNS: readonly RegExp[] = [
  /_TOKEN$/,
  /^TOKEN$/,
  /_KEY$/,
  /^API_?KEY$/,
  /_SECRET$/,
  /^SECRET/,
  /PASSWORD/,
  /PASSWD/,
  /PASSPHRASE/,
  /CREDENTIAL/,
  /_AUTH$/,
  /^AWS_/,
  /^AZURE_/,
  /^GCP_/,
  /^GOOGLE_APPLICATION_CREDENTIALS$/,
  /^GH_/,
  /^GITHUB_TOKEN$/,
  /^NPM_CONFIG__AUTH/,
  /^SSH_AUTH_SOCK$/,
  /_PRIVATE_KEY/,
  /^DATABASE_URL$/,
];

/** True for environment variable names that conventionally hold secrets (case-insensitive). */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_PATTERNS.some((pattern) => pattern.test(upper));
}
