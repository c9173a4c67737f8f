// What code outside the feature modules (the jobs) takes from activity.
export { notifyContractWatchers } from './package-notifications';
