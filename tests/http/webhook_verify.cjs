// Verifies webhook deliveries with the reference Standard Webhooks library (the npm
// package `standardwebhooks`, pinned in scripts/fetch-tools), independent of Imprint's
// signing code: tst_webhooks writes what its receiver got and runs this.
// usage: node webhook_verify.cjs FILE.json   (FILE: [{secret, id, timestamp, signature, body}])
// Prints "ok ID" or "bad ID: REASON" per delivery; exit status 0 when every one verified.
'use strict';
const fs = require('fs');
const { Webhook } = require('standardwebhooks');

const [file] = process.argv.slice(2);
let bad = 0;
for (const d of JSON.parse(fs.readFileSync(file, 'utf8'))) {
  try {
    new Webhook(d.secret).verify(d.body, {
      'webhook-id': d.id,
      'webhook-timestamp': d.timestamp,
      'webhook-signature': d.signature,
    });
    console.log(`ok ${d.id}`);
  } catch (e) {
    bad += 1;
    console.log(`bad ${d.id}: ${e.message}`);
  }
}
process.exit(bad === 0 ? 0 : 1);
