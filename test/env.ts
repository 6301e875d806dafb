// Loaded before anything else in every test process (.mocharc.json), so child processes inherit it too.
// Password hashes at scrypt's lowest accepted cost: the suite creates hundreds of logins, and the
// production cost (docs/operations.md, PASSWORD_HASH_COST) would spend minutes hashing them.
process.env.PASSWORD_HASH_COST ??= '10';
