// A person's data: one's own export on /profile, and an ADMIN's export and erasure of a person
// from the users and clients pages (the dialog a lazy chunk of its own).
export { PrivacyButtons, usePrivacyActions } from './privacy-actions';
export { OwnDataExport } from './privacy-export';
