/**
 * A spec whose env holds secrets: service db's DB_PASSWORD and timer backup's S3_SECRET_KEY (names
 * that look secret), beside service web's and db's LANG, which do not.
 */
export function secretSpec(dbPassword: string, s3Key: string): string {
  return `tend: v1alpha1
type: Service
name: db
exec: /usr/bin/db --serve
env: {DB_PASSWORD: ${dbPassword}, LANG: C}
---
tend: v1alpha1
type: Service
name: web
exec: /usr/bin/web
env: {LANG: C}
---
tend: v1alpha1
type: Timer
name: backup
exec: /usr/bin/backup
schedule: "0 3 * * *"
env: {S3_SECRET_KEY: ${s3Key}}
`;
}
