import JunoscopeCLI

#if canImport(Glibc)
  import Glibc
#endif

exit(Junoscope.run(Array(CommandLine.arguments.dropFirst())))
