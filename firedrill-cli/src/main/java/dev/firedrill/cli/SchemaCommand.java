package dev.firedrill.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.firedrill.fault.FaultKinds;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

@Command(
    name = "schema",
    description =
        "Print the experiment file's JSON Schema (draft 2020-12), for an editor's YAML or JSON"
            + " language server: save it and put '# yaml-language-server: $schema=FILE' at the top"
            + " of an experiment.")
final class SchemaCommand implements Callable<Integer> {

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    spec.commandLine()
        .getOut()
        .println(
            new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(ExperimentSchema.schema(FaultKinds.installed())));
    spec.commandLine().getOut().flush();
    return ExitCode.HELD;
  }
}
