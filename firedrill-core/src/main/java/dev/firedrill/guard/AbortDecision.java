package dev.firedrill.guard;

/** Why the method stops early, in one line. */
public record AbortDecision(String reason) {}
