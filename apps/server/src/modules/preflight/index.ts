// What code outside the feature modules (the jobs) takes from the pre-flight check.
export { sweepProbes } from './preflight.service';
