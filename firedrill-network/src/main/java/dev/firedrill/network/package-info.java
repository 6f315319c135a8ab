/**
 * Network faults inside a named network namespace, run through {@code ip netns exec} with argument
 * lists: nftables tables whose set elements carry the TTL as a kernel timeout ({@link
 * dev.firedrill.network.nft}), and tc root qdiscs the watchdog holds ({@link
 * dev.firedrill.network.tc}). The host's own namespace only with {@code
 * blast_radius.allow_host_network: true}.
 */
package dev.firedrill.network;
