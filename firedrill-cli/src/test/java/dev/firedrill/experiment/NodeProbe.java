package dev.firedrill.experiment;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.firedrill.yaml.SourceTree;
import java.util.ArrayList;
import java.util.Map;

/** Reaches the loader's Node from another package's test: a read the loader must not make. */
public final class NodeProbe {

  private NodeProbe() {}

  /** Reads {@code key} at the file's top level, as a loader that forgot to declare it would. */
  public static void readUndeclared(String key) {
    Node.Context context =
        new Node.Context("x.yaml", Map.of("", new SourceTree.Position(1, 1)), new ArrayList<>());
    new Node(context, "", JsonNodeFactory.instance.objectNode()).get(key);
  }
}
