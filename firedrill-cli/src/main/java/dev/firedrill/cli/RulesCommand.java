package dev.firedrill.cli;

import picocli.CommandLine.Command;

@Command(
    name = "rules",
    description = "Alerting and recording rules: lint them.",
    subcommands = RulesLintCommand.class)
final class RulesCommand {}
