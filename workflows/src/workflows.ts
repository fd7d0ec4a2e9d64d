/** Workflow entry module: the bundler registers every function exported here as a workflow type. */
export { ping, sleepingPing } from './smoke/workflow.ts';
