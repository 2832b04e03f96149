package io.fabemu.core.sim;

/**
 * Marks an exception a device throws to stop a run with a finding about the emulated system (a router network's
 * deadlock), not about fabemu: its message is the one line the user needs, so an engine logs it without a stack
 * trace. Every other exception a device throws is a bug and is logged with its stack trace.
 */
public interface ModelVerdict {}
