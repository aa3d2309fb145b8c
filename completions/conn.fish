function __conn_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __conn_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __conn_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __conn_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __conn_parse_tokens -S
    set -l unparsed_tokens (__conn_tokens -pc)
    switch $unparsed_tokens[1]
    case 'conn'
        __conn_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'probe'
            __conn_parse_subcommand -r 1 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'file=' 'internet' 'internet-url=+' 'wait=' 'concurrency=' 'expect-status=+' 'expect-body=' 'version' 'h/help'
        case 'watch'
            __conn_parse_subcommand -r 1 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'interval=' 'grace=' 'internet' 'no-internet' 'internet-url=+' 'no-link' 'details' 'exec=' 'flush-outbox' 'until=' 'version' 'h/help'
        case 'clock-offset'
            __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'method=' 'samples=' 'interval=' 'url=' 'ntp-server=' 'precision=' 'max-uncertainty=' 'convert=' 'version' 'h/help'
        case 'inbox'
            __conn_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'fetch'
                __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'force' 'version' 'h/help'
            case 'list'
                __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'limit=' 'offset=' 'from=' 'search=' 'since=' 'version' 'h/help'
            case 'thread'
                __conn_parse_subcommand 1 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'ascii' 'flat' 'max-depth=' 'version' 'h/help'
            end
        case 'send'
            __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'to=+' 'subject=' 'text=' 'file=' 'reply-to=' 'wait=' 'version' 'h/help'
        case 'outbox'
            __conn_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'state=+' 'version' 'h/help'
            case 'show'
                __conn_parse_subcommand 1 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'flush'
                __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'wait=' 'concurrency=' 'version' 'h/help'
            case 'resend'
                __conn_parse_subcommand -r 1 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'failed' 'version' 'h/help'
            case 'delete'
                __conn_parse_subcommand -r 1 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'failed' 'y/yes' 'version' 'h/help'
            end
        case 'repl'
            __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'interval=' 'no-link' 'version' 'h/help'
        case 'config'
            __conn_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'version' 'h/help'
            case 'path'
                __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'version' 'h/help'
            end
        case 'plugins'
            __conn_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __conn_parse_subcommand 0 'server=' 'profile=' 'config=' 'format=' 'json' 'timeout=' 'color=' 'insecure' 'v/verbose' 'q/quiet' 'names' 'version' 'h/help'
            end
        case 'help'
            __conn_parse_subcommand -r 1 'version'
        end
    end
end

function __conn_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __conn_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __conn_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __conn_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__conn_tokens -p)
    if test -z "$(__conn_tokens -t)"
        set -l index (count (__conn_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'conn' -f
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'probe' -d 'Tell what is reachable and, if not, which layer fails.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'watch' -d 'Watch connectivity and report each change as it happens (JSON Lines with --json).'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'clock-offset' -d 'Measure the back end\'s clock offset in ms, with an honest error bound.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'inbox' -d 'Fetch the inbox into a local cache and read it offline, as conversations.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'send' -d 'Send a message: queued durably first, delivered now or as soon as the server is reachable.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'outbox' -d 'List, show, deliver, resend and delete queued messages.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'repl' -d 'An interactive shell for conn\'s commands, with the live connection status in the prompt.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'config' -d 'Show the resolved configuration and where conn keeps its files.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'plugins' -d 'List built-in commands and external conn-NAME plugins.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion probe -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" file' -l 'file' -d 'Read targets from a file, one per line (\'-\' for stdin; # starts a comment).' -rF
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" internet' -l 'internet' -d 'Check the internet (plain-HTTP endpoints with a known answer) instead of, or as well as, the targets.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe"' -l 'internet-url' -d 'An endpoint of the internet check: URL, URL=STATUS or URL=STATUS:TEXT (repeatable).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" wait' -l 'wait' -d 'Keep probing until every target is reachable or this time is up: 5s, 2m, or seconds (more than 0).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" concurrency' -l 'concurrency' -d 'How many targets to probe at once.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe"' -l 'expect-status' -d 'HTTP statuses that count as reachable (default: 2xx and 3xx).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" expect-body' -l 'expect-body' -d 'Text the HTTP body must contain.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn probe" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion watch -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" interval' -l 'interval' -d 'How often to probe while online: 500ms, 5s, 2m (more than 0).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" grace' -l 'grace' -d 'Report a failure only once it has lasted this long (flaps shorter than this are not reported): 0, 500ms, 5s.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" internet' -l 'internet' -d 'Check the internet too (default when no target and no server is given).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" no-internet' -l 'no-internet' -d 'Never run the internet check.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch"' -l 'internet-url' -d 'An internet check endpoint: URL[=STATUS[:TEXT]] (repeatable).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" no-link' -l 'no-link' -d 'Do not hold the WebSocket link to the server.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" details' -l 'details' -d 'Print the fuller description of the state with each change.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" exec' -l 'exec' -d 'Run this shell command on each change; the event is in CONN_EVENT_* variables and as JSON on stdin.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" flush-outbox' -l 'flush-outbox' -d 'Deliver the outbox whenever the server is reachable (needs a configured server).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" until' -l 'until' -d 'Exit 0 once this state is reached: online, offline, serverUnreachable, portal, connected.' -rfka 'online offline serverUnreachable portal connected'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn watch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion clock-offset -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" method' -l 'method' -d 'How to measure: auto, json (/time), ws (WebSocket ping/pong), http-date (any HTTP server\'s Date header), sntp.' -rfka 'auto json ws http-date sntp'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" samples' -l 'samples' -d 'Exchanges to take after the warm-up (http-date: the most requests to make).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" interval' -l 'interval' -d 'Time between exchanges: 100ms, 1s, or 0 for back to back.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" url' -l 'url' -d 'For http-date: the URL whose Date header to read (default: the server\'s health resource).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" ntp-server' -l 'ntp-server' -d 'For sntp: the NTP server, host or host:port.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" precision' -l 'precision' -d 'For http-date: stop once the bound is this narrow (ms).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" max-uncertainty' -l 'max-uncertainty' -d 'Exit 75 when the bound is wider than this (ms).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" convert' -l 'convert' -d 'Convert a back-end time (ms since the epoch, or ISO 8601) to this device\'s time, with the last measured offset.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn clock-offset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn inbox" -eq 1' -fa 'fetch' -d 'Fetch the inbox into the local cache (conditional: unchanged inboxes cost one 304).'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn inbox" -eq 1' -fa 'list' -d 'List conversations from the cache, newest first (works offline).'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn inbox" -eq 1' -fa 'thread' -d 'Show the conversation that holds a message, as a tree (works offline).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion inbox fetch -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" force' -l 'force' -d 'Fetch everything even if the server says nothing changed (skip If-None-Match).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox fetch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion inbox list -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" limit' -l 'limit' -d 'How many conversations to show.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" offset' -l 'offset' -d 'How many to skip first.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" from' -l 'from' -d 'Only conversations with a message from this address (part of it is enough).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" search' -l 'search' -d 'Only conversations whose subject or text contains this.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" since' -l 'since' -d 'Only conversations active since this date (ISO 8601, RFC 2822, today, yesterday).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion inbox thread -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn inbox thread" -eq 1' -fka '(__conn_custom_completion ---completion inbox thread -- positional@0 (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" ascii' -l 'ascii' -d 'Draw the tree with ASCII (|- `-) instead of box-drawing characters.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" flat' -l 'flat' -d 'List the messages in date order instead of as a tree.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" max-depth' -l 'max-depth' -d 'Draw replies this deep at most; deeper ones are summarised.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn inbox thread" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion send -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send"' -l 'to' -d 'Recipient address (repeatable, or comma-separated).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" subject' -l 'subject' -d 'The subject line.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" text' -l 'text' -d 'The text of the message.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" file' -l 'file' -d 'Read the text from this file (\'-\' for standard input).' -rF
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" reply-to' -l 'reply-to' -d 'The uid of the inbox message this one answers.' -rfka '(__conn_custom_completion ---completion send -- --reply-to (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" wait' -l 'wait' -d 'Keep retrying until the message is sent or failed, for up to this long (--wait alone: 30s).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn send" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn outbox" -eq 1' -fa 'list' -d 'List outbox messages, oldest first (works offline).'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn outbox" -eq 1' -fa 'show' -d 'Show one outbox message: its text, state, last error and every attempt.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn outbox" -eq 1' -fa 'flush' -d 'Deliver waiting messages now, several at once over kept-alive connections.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn outbox" -eq 1' -fa 'resend' -d 'Put failed messages back in the queue (same id, same Idempotency-Key) and try them now.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn outbox" -eq 1' -fa 'delete' -d 'Delete outbox messages (asks first on a terminal; --yes to skip the question).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion outbox list -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list"' -l 'state' -d 'Only messages in this state: pending, sending, sent, failed (repeatable).' -rfka 'pending sending sent failed'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion outbox show -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn outbox show" -eq 1' -fka '(__conn_custom_completion ---completion outbox show -- positional@0 (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion outbox flush -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" wait' -l 'wait' -d 'Keep retrying until the queue is empty, for up to this long (--wait alone: 30s).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" concurrency' -l 'concurrency' -d 'Requests in flight at once.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox flush" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion outbox resend -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn outbox resend" -ge 1' -fka '(__conn_custom_completion ---completion outbox resend -- positional@0 (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" failed' -l 'failed' -d 'Every failed message.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox resend" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion outbox delete -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn outbox delete" -ge 1' -fka '(__conn_custom_completion ---completion outbox delete -- positional@0 (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" failed' -l 'failed' -d 'Every failed message.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" y yes' -l 'yes' -s 'y' -d 'Delete without asking.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn outbox delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion repl -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" interval' -l 'interval' -d 'How often the monitor checks while online: 500ms, 5s, 2m (more than 0).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" no-link' -l 'no-link' -d 'Start with the live link to the server off (`connect` turns it on).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn repl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn config" -eq 1' -fa 'show' -d 'Show every setting, its value and where it came from (the token is never shown).'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn config" -eq 1' -fa 'path' -d 'Print the config file\'s path; with --json, every directory conn uses.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion config show -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion config path -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn config path" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn plugins" -eq 1' -fa 'list' -d 'List built-in commands and the external plugins found, with their paths.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" server' -l 'server' -d 'The back end\'s base URL, e.g. http://127.0.0.1:8080 (overrides the profile).' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" profile' -l 'profile' -d 'The profile of the config file to use.' -rfka '(__conn_custom_completion ---completion plugins list -- --profile (count (__conn_tokens -pc)) (__conn_tokens -tC))'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" config' -l 'config' -d 'The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.' -rfa '(set -l exts \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" format' -l 'format' -d 'Output format: text for people, json for scripts.' -rfka 'text json'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" json' -l 'json' -d 'Short for --format json.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" timeout' -l 'timeout' -d 'Deadline for each network operation: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.' -rfka ''
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" color' -l 'color' -d 'When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.' -rfka 'auto always never'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" insecure' -l 'insecure' -d 'Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" v verbose' -l 'verbose' -s 'v' -d 'Print what conn does on stderr (requests, timings, config sources).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" names' -l 'names' -d 'Print only the command words the plugins add, one a line (what shell completion offers after `conn`).'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn plugins list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'conn' -n '__conn_should_offer_completions_for_flags_or_options "conn help" version' -l 'version' -d 'Show the version.'
complete -c 'conn' -n '__conn_should_offer_completions_for_positional "conn" -eq 1' -fka '(conn plugins list --names 2>/dev/null)' -d 'plugin'
