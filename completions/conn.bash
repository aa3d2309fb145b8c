
__conn_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__conn_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__conn_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__conn_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_conn() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"
    if declare -F __reassemble_comp_words_by_ref >/dev/null; then
        local -a joined_words
        local joined_cword
        __reassemble_comp_words_by_ref ':' joined_words joined_cword
        local -a COMP_WORDS=("${joined_words[@]}")
        local COMP_CWORD="${joined_cword}"
    fi

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    probe|watch|top|clock-offset|inbox|send|request|get|cache|outbox|repl|agent|login|logout|config|plugins|help)
        # Offer subcommand argument completions
        "_conn_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W "probe watch top clock-offset inbox send request get cache outbox repl agent login logout config plugins help $("${COMP_WORDS[0]}" plugins list --names 2>/dev/null)" -- "${cur}"))
        ;;
    esac
}

_conn_probe() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --internet --flood --all-attempts -4 --ipv4 -6 --ipv6 --each-interface --version -h --help)
    repeating_options=(--internet-url --expect-status)
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --file --wait --concurrency --count --interval --expect-body --interface)
    __conn_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion probe -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--file')
        __conn_add_completions -f
        return
        ;;
    '--internet-url')
        return
        ;;
    '--wait')
        return
        ;;
    '--concurrency')
        return
        ;;
    '--count')
        return
        ;;
    '--interval')
        return
        ;;
    '--expect-status')
        return
        ;;
    '--expect-body')
        return
        ;;
    '--interface')
        __conn_add_completions -W "$(__conn_custom_complete ---completion probe -- --interface "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_conn_watch() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --internet --no-internet --no-link -4 --ipv4 -6 --ipv6 --details --flush-outbox --version -h --help)
    repeating_options=(--internet-url --probe-allow)
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --interval --grace --interface --metrics-listen --metrics-buckets --web-config-file --exec --until)
    __conn_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion watch -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--interval')
        return
        ;;
    '--grace')
        return
        ;;
    '--internet-url')
        return
        ;;
    '--interface')
        __conn_add_completions -W "$(__conn_custom_complete ---completion watch -- --interface "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--metrics-listen')
        return
        ;;
    '--probe-allow')
        return
        ;;
    '--metrics-buckets')
        return
        ;;
    '--web-config-file')
        __conn_add_completions -f
        return
        ;;
    '--exec')
        return
        ;;
    '--until')
        __conn_add_completions -W 'online'$'\n''offline'$'\n''serverUnreachable'$'\n''portal'$'\n''connected'
        return
        ;;
    esac
}

_conn_top() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --internet --no-internet --no-link -4 --ipv4 -6 --ipv6 --no-agent --version -h --help)
    repeating_options=(--internet-url)
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --interval --grace --interface)
    __conn_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion top -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--interval')
        return
        ;;
    '--grace')
        return
        ;;
    '--internet-url')
        return
        ;;
    '--interface')
        __conn_add_completions -W "$(__conn_custom_complete ---completion top -- --interface "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_conn_clock-offset() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q -4 --ipv4 -6 --ipv6 --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --method --samples --interval --url --ntp-server --precision --max-uncertainty --chrony-socket --every --interface --convert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion clock-offset -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--method')
        __conn_add_completions -W 'auto'$'\n''json'$'\n''ws'$'\n''http-date'$'\n''sntp'
        return
        ;;
    '--samples')
        return
        ;;
    '--interval')
        return
        ;;
    '--url')
        return
        ;;
    '--ntp-server')
        return
        ;;
    '--precision')
        return
        ;;
    '--max-uncertainty')
        return
        ;;
    '--chrony-socket')
        __conn_add_completions -f
        return
        ;;
    '--every')
        return
        ;;
    '--interface')
        __conn_add_completions -W "$(__conn_custom_complete ---completion clock-offset -- --interface "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--convert')
        return
        ;;
    esac
}

_conn_inbox() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __conn_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    fetch|list|thread|sources)
        # Offer subcommand argument completions
        "_conn_inbox_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'fetch list thread sources' -- "${cur}"))
        ;;
    esac
}

_conn_inbox_fetch() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion inbox fetch -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_inbox_list() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --all --ascii --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --limit --offset --from --search --since --until)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion inbox list -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--limit')
        return
        ;;
    '--offset')
        return
        ;;
    '--from')
        return
        ;;
    '--search')
        return
        ;;
    '--since')
        return
        ;;
    '--until')
        return
        ;;
    esac
}

_conn_inbox_thread() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --ascii --flat --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --max-depth)
    __conn_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion inbox thread -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--max-depth')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __conn_add_completions -W "$(__conn_custom_complete ---completion inbox thread -- positional@0 "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_conn_inbox_sources() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion inbox sources -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_send() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=(--to)
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --subject --text --file --reply-to --wait)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion send -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--to')
        return
        ;;
    '--subject')
        return
        ;;
    '--text')
        return
        ;;
    '--file')
        __conn_add_completions -f
        return
        ;;
    '--reply-to')
        __conn_add_completions -W "$(__conn_custom_complete ---completion send -- --reply-to "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--wait')
        return
        ;;
    esac
}

_conn_request() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --no-idempotency-key --version -h --help)
    repeating_options=(-H --header --expect --secret-header)
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert -X --method --body --body-file --idempotency-header --wait)
    __conn_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion request -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '-X'|'--method')
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--body')
        return
        ;;
    '--body-file')
        __conn_add_completions -f
        return
        ;;
    '--expect')
        return
        ;;
    '--idempotency-header')
        return
        ;;
    '--secret-header')
        return
        ;;
    '--wait')
        return
        ;;
    esac
}

_conn_get() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --offline --version -h --help)
    repeating_options=(-H --header)
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --strategy --max-age)
    __conn_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion get -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--strategy')
        __conn_add_completions -W 'network-first'$'\n''cache-first'$'\n''stale-while-revalidate'$'\n''cache-only'
        return
        ;;
    '--max-age')
        return
        ;;
    '-H'|'--header')
        return
        ;;
    esac
}

_conn_cache() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __conn_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|clear)
        # Offer subcommand argument completions
        "_conn_cache_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list clear' -- "${cur}"))
        ;;
    esac
}

_conn_cache_list() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion cache list -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_cache_clear() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --all --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion cache clear -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_outbox() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __conn_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|show|flush|resend|retarget|delete)
        # Offer subcommand argument completions
        "_conn_outbox_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list show flush resend retarget delete' -- "${cur}"))
        ;;
    esac
}

_conn_outbox_list() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --all --version -h --help)
    repeating_options=(--state)
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --limit --after)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox list -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--state')
        __conn_add_completions -W 'pending'$'\n''sending'$'\n''sent'$'\n''failed'
        return
        ;;
    '--limit')
        return
        ;;
    '--after')
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox list -- --after "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_conn_outbox_show() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox show -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox show -- positional@0 "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_conn_outbox_flush() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --wait --concurrency)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox flush -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--wait')
        return
        ;;
    '--concurrency')
        return
        ;;
    esac
}

_conn_outbox_resend() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --failed --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox resend -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox resend -- positional@0 "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_conn_outbox_retarget() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox retarget -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox retarget -- positional@0 "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_conn_outbox_delete() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --failed --yes -y --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox delete -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __conn_add_completions -W "$(__conn_custom_complete ---completion outbox delete -- positional@0 "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_conn_repl() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --no-link --internet --no-internet --version -h --help)
    repeating_options=(--internet-url)
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --interval)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion repl -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--interval')
        return
        ;;
    '--internet-url')
        return
        ;;
    esac
}

_conn_agent() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __conn_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    run|status)
        # Offer subcommand argument completions
        "_conn_agent_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'run status' -- "${cur}"))
        ;;
    esac
}

_conn_agent_run() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --internet --no-internet --no-link -4 --ipv4 -6 --ipv6 --version -h --help)
    repeating_options=(--internet-url --probe-allow)
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --interval --grace --interface --sync-interval --metrics-listen --metrics-buckets --web-config-file)
    __conn_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion agent run -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--interval')
        return
        ;;
    '--grace')
        return
        ;;
    '--internet-url')
        return
        ;;
    '--interface')
        __conn_add_completions -W "$(__conn_custom_complete ---completion agent run -- --interface "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--sync-interval')
        return
        ;;
    '--metrics-listen')
        return
        ;;
    '--probe-allow')
        return
        ;;
    '--metrics-buckets')
        return
        ;;
    '--web-config-file')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_agent_status() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion agent status -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_login() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --password-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert --email)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion login -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    '--email')
        return
        ;;
    esac
}

_conn_logout() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion logout -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_config() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __conn_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show|get|set|init|edit|profiles|path)
        # Offer subcommand argument completions
        "_conn_config_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show get set init edit profiles path' -- "${cur}"))
        ;;
    esac
}

_conn_config_show() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion config show -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_config_get() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion config get -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __conn_add_completions -W 'server'$'\n''format'$'\n''color'$'\n''timeout'$'\n''outboxExpiry'$'\n''outboxKeepSent'$'\n''insecure'$'\n''caCert'$'\n''utc'$'\n''email'$'\n''token'$'\n''pluginsWithToken'$'\n''internetCheck'$'\n''chronySocket'$'\n''chronyMaxUncertainty'$'\n''sync'$'\n''cacheLimit'$'\n''proxy'$'\n''noProxy'$'\n''proxyInsecure'$'\n''proxyCaCert'$'\n''profile'$'\n''resources.health'$'\n''resources.inbox'$'\n''resources.messages'$'\n''resources.time'$'\n''resources.ws'$'\n''resources.session'
        return
        ;;
    esac
}

_conn_config_set() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion config set -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __conn_add_completions -W 'server'$'\n''format'$'\n''color'$'\n''timeout'$'\n''outboxExpiry'$'\n''outboxKeepSent'$'\n''insecure'$'\n''caCert'$'\n''utc'$'\n''email'$'\n''token'$'\n''pluginsWithToken'$'\n''internetCheck'$'\n''chronySocket'$'\n''chronyMaxUncertainty'$'\n''sync'$'\n''cacheLimit'$'\n''proxy'$'\n''noProxy'$'\n''proxyInsecure'$'\n''proxyCaCert'$'\n''profile'$'\n''resources.health'$'\n''resources.inbox'$'\n''resources.messages'$'\n''resources.time'$'\n''resources.ws'$'\n''resources.session'
        return
        ;;
    esac
}

_conn_config_init() {
    repeating_flags=()
    non_repeating_flags=(--force --json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--email --server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--email')
        return
        ;;
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion config init -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_config_edit() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion config edit -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_config_profiles() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion config profiles -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_config_path() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion config path -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_plugins() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __conn_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list)
        # Offer subcommand argument completions
        "_conn_plugins_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list' -- "${cur}"))
        ;;
    esac
}

_conn_plugins_list() {
    repeating_flags=()
    non_repeating_flags=(--json --insecure --proxy-insecure --no-pager --utc --verbose -v --quiet -q --names --version -h --help)
    repeating_options=()
    non_repeating_options=(--server --profile --config --format --timeout --color --cacert --proxy --noproxy --proxy-cacert)
    __conn_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--server')
        return
        ;;
    '--profile')
        __conn_add_completions -W "$(__conn_custom_complete ---completion plugins list -- --profile "${COMP_CWORD}" "$(__conn_cursor_index_in_current_word)")"
        return
        ;;
    '--config')
        __conn_add_completions -o plusdirs -fX '!*.@(yaml|yml)'
        return
        ;;
    '--format')
        __conn_add_completions -W 'text'$'\n''json'$'\n''prometheus'
        return
        ;;
    '--timeout')
        return
        ;;
    '--color')
        __conn_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--cacert')
        __conn_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-cacert')
        __conn_add_completions -f
        return
        ;;
    esac
}

_conn_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __conn_offer_flags_options -1
}

complete -o filenames -F _conn conn
