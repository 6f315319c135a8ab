package dev.firedrill.format;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file could not be read, in words: the JDK's exceptions carry only the path ("absent.yml"),
 * or their class name, which read as no reason at all after "cannot read:".
 */
public final class IoReasons {

  private IoReasons() {}

  public static String of(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof CharacterCodingException) {
      return "not UTF-8 text";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    String message = e.getMessage();
    if (message != null && message.endsWith("Is a directory")) {
      return "a directory, not a file";
    }
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}
