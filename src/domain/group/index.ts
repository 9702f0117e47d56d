export { nextMembers, type ParentOf, rootCustomer, sameHierarchy } from './rules.js';
export {
  GROUP_TARGET_TYPES,
  type GroupMembership,
  type GroupTargetType,
  type SubscriptionGroup,
} from './types.js';
