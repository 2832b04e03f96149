package io.fabemu.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A set of Kubernetes manifests (one {@code kubectl kustomize} rendering, or one plain file), every document checked
 * against the Kubernetes API's own model classes: {@code V1<Kind>.fromJson} of the official Java client rejects
 * unknown keys, values of the wrong type and missing required fields, offline.
 *
 * <p>Contract: {@link #parse} either returns every document typed, or throws {@link IllegalArgumentException} with
 * one message naming the source, the document's position, kind and name, and what the model class refused. Only
 * the kinds in {@link #MODELS} are accepted: a kind nobody checks is a failure, not a pass.
 */
public final class Rendering {
  /** Reads one document's JSON into its model class, checking it. */
  @FunctionalInterface
  interface ModelReader {
    Object read(String json) throws IOException;
  }

  /** One document: its kind, its name, the tree as rendered and the checked model object. */
  public record Document(String kind, String name, JsonNode tree, Object model) {}

  /** Every kind the manifests may hold, by {@code apiVersion/kind}, with the model class that checks it. */
  static final Map<String, ModelReader> MODELS = Map.ofEntries(
      Map.entry("v1/ServiceAccount", V1ServiceAccount::fromJson),
      Map.entry("v1/Service", V1Service::fromJson),
      Map.entry("v1/ConfigMap", V1ConfigMap::fromJson),
      Map.entry("v1/PersistentVolumeClaim", V1PersistentVolumeClaim::fromJson),
      Map.entry("v1/Pod", V1Pod::fromJson),
      Map.entry("apps/v1/StatefulSet", V1StatefulSet::fromJson),
      Map.entry("batch/v1/Job", V1Job::fromJson),
      Map.entry("policy/v1/PodDisruptionBudget", V1PodDisruptionBudget::fromJson),
      Map.entry("rbac.authorization.k8s.io/v1/Role", V1Role::fromJson),
      Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", V1RoleBinding::fromJson),
      Map.entry("rbac.authorization.k8s.io/v1/ClusterRole", V1ClusterRole::fromJson),
      Map.entry("rbac.authorization.k8s.io/v1/ClusterRoleBinding", V1ClusterRoleBinding::fromJson));

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String source;
  private final List<Document> documents;

  private Rendering(String source, List<Document> documents) {
    this.source = source;
    this.documents = List.copyOf(documents);
  }

  /**
   * Splits {@code yaml} (documents separated by {@code ---}) and checks every document.
   *
   * @param source what the YAML is, for messages (e.g. {@code kubectl kustomize overlays/small})
   * @throws IllegalArgumentException when the YAML does not parse or a document is not a valid object of its kind
   */
  public static Rendering parse(String source, String yaml) {
    List<JsonNode> trees = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNextValue()) {
        JsonNode tree = it.nextValue();
        if (tree != null && !tree.isNull() && !tree.isMissingNode()) trees.add(tree);
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(source + ": not YAML: " + oneLine(e.getMessage()), e);
    }
    return fromTrees(source, trees);
  }

  /**
   * Checks each of {@code trees} (e.g. a rendering's trees after a deliberate change) against its model class.
   *
   * @throws IllegalArgumentException as {@link #parse}
   */
  public static Rendering fromTrees(String source, List<JsonNode> trees) {
    List<Document> documents = new ArrayList<>();
    for (int i = 0; i < trees.size(); i++) {
      JsonNode tree = trees.get(i);
      String kind = tree.path("kind").asText("");
      String name = tree.path("metadata").path("name").asText("");
      String where = source + ": document " + (i + 1) + " (" + (kind.isEmpty() ? "no kind" : kind)
          + (name.isEmpty() ? "" : " " + name) + ")";
      if (!tree.isObject()) throw new IllegalArgumentException(where + ": not a mapping");
      String type = tree.path("apiVersion").asText("") + "/" + kind;
      ModelReader reader = MODELS.get(type);
      if (reader == null) {
        throw new IllegalArgumentException(where + ": apiVersion/kind " + type + " is not one this suite checks ("
            + String.join(", ", MODELS.keySet().stream().sorted().toList()) + ")");
      }
      if (name.isEmpty()) throw new IllegalArgumentException(where + ": metadata.name is missing");
      Object model;
      try {
        model = reader.read(JSON.writeValueAsString(tree));
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException(where + ": " + oneLine(e.getMessage()), e);
      }
      documents.add(new Document(kind, name, tree, model));
    }
    return new Rendering(source, documents);
  }

  /** What was rendered, for messages. */
  public String source() {
    return source;
  }

  /** Every document, in the rendered order. */
  public List<Document> documents() {
    return documents;
  }

  /** The documents' trees, deep copies (to change one deliberately and check again). */
  public List<JsonNode> treeCopies() {
    return documents.stream().map(d -> d.tree().deepCopy()).map(JsonNode.class::cast).toList();
  }

  /** Every document of {@code type}'s kind, as that model class. */
  public <T> List<T> all(Class<T> type) {
    return documents.stream().map(Document::model).filter(type::isInstance).map(type::cast).toList();
  }

  /** The ConfigMap named {@code name} (after kustomize's hash suffix, as the references name it), or null. */
  public V1ConfigMap configMap(String name) {
    return all(V1ConfigMap.class).stream().filter(c -> c.getMetadata().getName().equals(name)).findFirst()
        .orElse(null);
  }

  private static String oneLine(String message) {
    return message == null ? "" : message.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }
}
