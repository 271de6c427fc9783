/**
 * RSched: RDMA put schedulers for persistent communication sets (S3, DESIGN §7). Pure
 * algorithms, no dependencies: {@link org.hympj.rsched.Put} sets in,
 * {@link org.hympj.rsched.Schedule}s (per-engine ordered slots with modelled times) out.
 * Policies by name through {@link org.hympj.rsched.Schedulers#parse}; every policy is timed by
 * the one {@link org.hympj.rsched.Simulator}; {@link org.hympj.rsched.LowerBound} says how
 * close a schedule is. See docs/RSCHED.md.
 */
package org.hympj.rsched;
