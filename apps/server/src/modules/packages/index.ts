// What code outside the feature modules (the jobs) takes from packages.
export { packageWithContract } from './packages.repository';
export { announceReceivedJob, PACKAGE_RECEIVED_JOB } from './package-received';
