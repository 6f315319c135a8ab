package dev.firedrill.cli;

import picocli.CommandLine.Command;

@Command(
    name = "lab",
    description = "The lab: demo services and the stack that watches them, on loopback.",
    subcommands = {
      LabUpCommand.class,
      LabDownCommand.class,
      LabStatusCommand.class,
      LabPaymentsCommand.class,
      LabCheckoutCommand.class
    })
final class LabCommand {}
